// Money in OptionPilot is integer paise (₹1 = 100 paise): stored, summed and sent as whole numbers, converted to
// rupees only where a figure stays in rupees (option premiums, P&L the engine computes from them) or is shown.
// One module, so each conversion has one name and one meaning everywhere (engine, server and web import it).

/** A whole number of paise. A documented alias, not a brand: database rows and wire DTOs already carry plain numbers. */
export type Paise = number;

/** Basis points in 100 %. */
const BP_PER_UNIT = 10_000;

/** Rupees → whole paise, to the nearest paisa (100.05 → 10005; 0.1 + 0.2 → 30, not 30.000000000000004). */
export function rupeesToPaise(rupees: number): Paise {
  // `+ 0` turns −0 (a tiny negative amount) into 0, so a stored or compared figure is never −0.
  return Math.round(rupees * 100) + 0;
}

/** Paise → rupees (10005 → 100.05), exact to the paisa: a fraction of a paisa is rounded off first. */
export function paiseToRupees(paise: Paise): number {
  return (Math.round(paise) + 0) / 100;
}

/** Rupees → rupees to the nearest paisa (123.456 → 123.46), for figures that stay in rupees, such as premiums. */
export function roundToPaisa(rupees: number): number {
  return paiseToRupees(rupeesToPaise(rupees));
}

/**
 * A rupee amount typed by a person ("5,898.82", " 4999 ") → whole paise, or NaN when it is not a non-negative
 * amount with at most two decimals. Commas anywhere are ignored, as people group digits in either style.
 */
export function parseRupeesToPaise(text: string): Paise {
  const cleaned = text.replace(/,/g, '').trim();
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return Number.NaN;
  return rupeesToPaise(Number(cleaned));
}

/**
 * `rateBp` basis points of `basePaise`, to the nearest paisa with halves rounded up (499900 at 1800 bp → 89982):
 * GST and percentage discounts. Integer arithmetic only, so no float turns 899.82 into 899.8199….
 */
export function basisPointsOfPaise(basePaise: Paise, rateBp: number): Paise {
  if (!Number.isSafeInteger(basePaise) || basePaise < 0) {
    throw new RangeError('basePaise must be a whole number ≥ 0');
  }
  if (!Number.isSafeInteger(rateBp) || rateBp < 0) throw new RangeError('rateBp must be a whole number ≥ 0');
  const product = basePaise * rateBp;
  if (!Number.isSafeInteger(product)) throw new RangeError('amount too large');
  return Math.floor((product + BP_PER_UNIT / 2) / BP_PER_UNIT);
}

const INR = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
const INR_WHOLE = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
});

/** Whole paise as rupees with Indian digit grouping: 12345678 → "₹1,23,456.78", −100 → "-₹1.00". */
export function formatPaise(paise: Paise): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError('paise must be a whole number');
  return INR.format(paise / 100);
}

/** Whole paise as whole rupees for headline figures, where ".00" only adds noise: 499900 → "₹4,999". */
export function formatPaiseWhole(paise: Paise): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError('paise must be a whole number');
  return INR_WHOLE.format(paise / 100);
}
