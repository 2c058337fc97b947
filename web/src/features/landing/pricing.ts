// Plan figures for the landing page. Money stays in integer paise (DOMAIN.md §5) and is formatted only for display
// (formatInr of lib/format), so the page shows exactly what the server charges (589882 paise a month).

/** Monthly plan price before tax: ₹4,999.00. */
export const PLAN_PRICE_PAISE = 499_900;

/** GST on SaaS, in whole percent (DOMAIN.md §4). */
export const GST_RATE_PERCENT = 18;

export interface PriceBreakdown {
  basePaise: number;
  gstPaise: number;
  totalPaise: number;
}

/** GST on an amount in paise, rounded half-up to the paisa using integer maths only (no float drift). */
export function gstPaise(basePaise: number, ratePercent: number = GST_RATE_PERCENT): number {
  if (!Number.isSafeInteger(basePaise) || basePaise < 0) {
    throw new RangeError(`basePaise must be a non-negative integer, got ${basePaise}`);
  }
  if (!Number.isSafeInteger(ratePercent) || ratePercent < 0) {
    throw new RangeError(`ratePercent must be a non-negative integer, got ${ratePercent}`);
  }
  return Math.floor((basePaise * ratePercent + 50) / 100);
}

/** Base, GST and total of a plan price, all in paise. */
export function priceBreakdown(basePaise: number = PLAN_PRICE_PAISE): PriceBreakdown {
  const gst = gstPaise(basePaise);
  return { basePaise, gstPaise: gst, totalPaise: basePaise + gst };
}

// Whole-rupee figures for headline stats ("₹4,999"), where ".00" would only add noise.
const inrWholeFormatter = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
});

/** Formats paise as whole rupees, e.g. 499900 → "₹4,999". */
export function formatInrWhole(paise: number): string {
  return inrWholeFormatter.format(paise / 100);
}
