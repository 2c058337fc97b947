// How a GST amount is split on an invoice and how a total is written in words. Integer paise throughout.

export interface TaxSplit {
  cgstRateBp: number;
  cgstPaise: number;
  sgstRateBp: number;
  sgstPaise: number;
  igstRateBp: number;
  igstPaise: number;
}

/**
 * Inside the supplier's state the tax is CGST + SGST at half the rate each, across states IGST at the full rate.
 * An odd paisa of an intra-state split goes to SGST, so the two heads always add up to the tax charged.
 */
export function splitGst(props: {
  gstPaise: number;
  rateBp: number;
  supplierStateCode: string;
  placeOfSupply: string;
}): TaxSplit {
  const { gstPaise, rateBp } = props;
  if (props.supplierStateCode !== props.placeOfSupply) {
    return {
      cgstRateBp: 0,
      cgstPaise: 0,
      sgstRateBp: 0,
      sgstPaise: 0,
      igstRateBp: rateBp,
      igstPaise: gstPaise,
    };
  }
  const cgst = Math.floor(gstPaise / 2);
  return {
    cgstRateBp: rateBp / 2,
    cgstPaise: cgst,
    sgstRateBp: rateBp / 2,
    sgstPaise: gstPaise - cgst,
    igstRateBp: 0,
    igstPaise: 0,
  };
}

/**
 * The taxable value inside a GST-inclusive amount that did not come from our own price (e.g. a UPI transfer of a
 * different sum): amount × 10000 / (10000 + rate), nearest paisa with halves up; the tax is the rest, so the two
 * always add up to the amount received.
 */
export function taxableOfInclusive(amountPaise: number, rateBp: number): number {
  return Math.floor((amountPaise * 10_000 * 2 + (10_000 + rateBp)) / ((10_000 + rateBp) * 2));
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n] ?? '';
  const unit = n % 10;
  return `${TENS[Math.floor(n / 10)] ?? ''}${unit ? ` ${ONES[unit] ?? ''}` : ''}`;
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [hundreds ? `${ONES[hundreds] ?? ''} Hundred` : '', rest ? belowHundred(rest) : '']
    .filter(Boolean)
    .join(' ');
}

/** A whole number in the Indian system (crore, lakh, thousand): 589882 → "Five Lakh Eighty Nine Thousand …". */
export function numberInWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError('a whole number ≥ 0 is needed');
  if (n === 0) return 'Zero';
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  const thousand = Math.floor((n % 100_000) / 1000);
  const rest = n % 1000;
  return [
    crore ? `${numberInWords(crore)} Crore` : '',
    lakh ? `${belowHundred(lakh)} Lakh` : '',
    thousand ? `${belowHundred(thousand)} Thousand` : '',
    rest ? belowThousand(rest) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** "Rupees Five Thousand Eight Hundred Ninety Eight and Eighty Two Paise Only" for 589882 paise. */
export function rupeesInWords(paise: number): string {
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  const words = `Rupees ${numberInWords(rupees)}`;
  return `${rest ? `${words} and ${belowHundred(rest)} Paise` : words} Only`;
}
