// Plan figures for the landing page. Money stays in integer paise (DOMAIN.md §5) and is formatted only for display
// (formatInr of lib/format), so the page shows exactly what the server charges (589882 paise a month).
import { basisPointsOfPaise, formatPaiseWhole } from '@optionpilot/engine/money';

/** Monthly plan price before tax: ₹4,999.00. */
export const PLAN_PRICE_PAISE = 499_900;

/** GST on SaaS, in whole percent (DOMAIN.md §4). */
export const GST_RATE_PERCENT = 18;

export interface PriceBreakdown {
  basePaise: number;
  gstPaise: number;
  totalPaise: number;
}

/** GST on an amount in paise at `rateBp` basis points (as the server's gstPaise), rounded half-up to the paisa. */
export function gstPaise(basePaise: number, rateBp: number = GST_RATE_PERCENT * 100): number {
  return basisPointsOfPaise(basePaise, rateBp);
}

/** Base, GST and total of a plan price, all in paise. */
export function priceBreakdown(basePaise: number = PLAN_PRICE_PAISE): PriceBreakdown {
  const gst = gstPaise(basePaise);
  return { basePaise, gstPaise: gst, totalPaise: basePaise + gst };
}

/** Formats paise as whole rupees for headline stats, e.g. 499900 → "₹4,999". */
export const formatInrWhole = formatPaiseWhole;
