// Plan prices in integer paise. GST is computed once, here, so the landing page, the order and the invoice agree.
import { basisPointsOfPaise } from '@optionpilot/engine/money';
import type { OfferRow, PlanRow } from '../db';

/**
 * GST on `basePaise` at `rateBp` basis points, rounded to the nearest paisa with halves rounded up
 * (499900 at 1800 bp → 89982). Integer arithmetic only: no float can turn 899.82 into 899.8199….
 */
export function gstPaise(basePaise: number, rateBp: number): number {
  return basisPointsOfPaise(basePaise, rateBp);
}

export interface Price {
  basePaise: number;
  discountPaise: number;
  gstPaise: number;
  /** base − discount + GST: what the buyer pays */
  totalPaise: number;
}

/** The price of a plan; GST applies to the price after any discount (the taxable value). */
export function priceOf(plan: Pick<PlanRow, 'price_paise' | 'gst_rate_bp'>, discountPaise = 0): Price {
  const taxable = plan.price_paise - discountPaise;
  if (taxable <= 0) throw new RangeError('discount must leave a positive taxable value');
  const gst = gstPaise(taxable, plan.gst_rate_bp);
  return { basePaise: plan.price_paise, discountPaise, gstPaise: gst, totalPaise: taxable + gst };
}

/**
 * `startMs` moved by `months` calendar months (UTC), the day clamped to the target month's length: 31 Jan + 1 month
 * is 28/29 Feb, never 3 Mar.
 */
export function addMonths(startMs: number, months: number): number {
  const d = new Date(startMs);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.getTime();
}

/** An offer's discount on a price: `discountBp` basis points, nearest paisa with halves up (like GST). */
export function discountPaise(pricePaise: number, discountBp: number): number {
  return basisPointsOfPaise(pricePaise, discountBp);
}

/**
 * The discount `offer` gives on `pricePaise`: its fixed amount, or its percentage of the price (nearest paisa,
 * halves up). The one reader of an offer's discount columns. It may reach the price: callers refuse such an offer.
 */
export function offerDiscountPaise(
  offer: Pick<OfferRow, 'discount_bp' | 'discount_paise'>,
  pricePaise: number,
): number {
  return offer.discount_paise !== null ? offer.discount_paise : discountPaise(pricePaise, offer.discount_bp);
}

/** The least a discounted plan may cost before GST: ₹1, Razorpay's smallest order. */
export const MIN_TAXABLE_PAISE = 100;
