/**
 * Indian charges on an options buy+sell round trip (DOMAIN.md §1, **verify rates** against the broker's and
 * exchange's current schedules). The rates are one table of data; arithmetic is in integer paise so the
 * figures match a contract note to the paisa.
 */
import { paiseToRupees, rupeesToPaise } from '../money';

/** Rates of a round trip. Percentages are stored as parts per 10 million (1 = 0.00001%) so they stay integers. */
export interface ChargeRates {
  /** flat brokerage per executed order, rupees */
  readonly brokeragePerOrder: number;
  /** STT on the sell-side premium */
  readonly sttSellPpt: number;
  /** exchange transaction charge on total premium */
  readonly exchangePpt: number;
  /** SEBI turnover fee on total premium */
  readonly sebiPpt: number;
  /** stamp duty on the buy-side premium */
  readonly stampBuyPpt: number;
  /** GST, percent, on brokerage + exchange charge + SEBI fee */
  readonly gstPercent: number;
}

/** Options charges as in DOMAIN.md §1: ₹20/order, STT 0.1% sell, NSE 0.03503%, SEBI ₹10/crore, stamp 0.003% buy, GST 18%. */
export const NSE_OPTION_CHARGES: ChargeRates = {
  brokeragePerOrder: 20,
  sttSellPpt: 10_000, // 0.1%
  exchangePpt: 3_503, // 0.03503%
  sebiPpt: 10, // ₹10 per crore = 0.0001%
  stampBuyPpt: 300, // 0.003%
  gstPercent: 18,
};

/** The two legs of a round trip: premiums in rupees per unit, quantity in units. */
export interface RoundTrip {
  readonly buyPremium: number;
  readonly sellPremium: number;
  readonly quantity: number;
  /** executed orders per side (freeze-quantity splits make more than one); default 1 each */
  readonly buyOrders?: number;
  readonly sellOrders?: number;
}

/** Itemised charges in rupees, each rounded to the paisa; `total` is their sum. */
export interface ChargeBreakdown {
  readonly brokerage: number;
  readonly stt: number;
  readonly exchange: number;
  readonly sebi: number;
  readonly stamp: number;
  readonly gst: number;
  readonly total: number;
}

const PPT = 10_000_000;

/** round(numerator / denominator) half up, for non-negative integers, without floating error. */
function divideRound(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** Charges of an options buy+sell round trip, itemised, in rupees rounded to paise. */
export function roundTripCharges(trip: RoundTrip, rates: ChargeRates = NSE_OPTION_CHARGES): ChargeBreakdown {
  const { buyPremium, sellPremium, quantity } = trip;
  if (!(buyPremium >= 0) || !(sellPremium >= 0) || !Number.isInteger(quantity) || quantity < 0) {
    throw new RangeError('premiums must be ≥ 0 and quantity a non-negative integer');
  }
  // Premiums are tick multiples (₹0.05), so turnover in paise is an integer once binary noise is rounded off.
  const buyTurnover = rupeesToPaise(buyPremium * quantity);
  const sellTurnover = rupeesToPaise(sellPremium * quantity);
  const turnover = buyTurnover + sellTurnover;
  const orders = (trip.buyOrders ?? 1) + (trip.sellOrders ?? 1);
  const brokerage = rupeesToPaise(rates.brokeragePerOrder) * orders;
  const stt = divideRound(sellTurnover * rates.sttSellPpt, PPT);
  const exchange = divideRound(turnover * rates.exchangePpt, PPT);
  const sebi = divideRound(turnover * rates.sebiPpt, PPT);
  const stamp = divideRound(buyTurnover * rates.stampBuyPpt, PPT);
  const gst = divideRound((brokerage + exchange + sebi) * rates.gstPercent, 100);
  const total = brokerage + stt + exchange + sebi + stamp + gst;
  return {
    brokerage: paiseToRupees(brokerage),
    stt: paiseToRupees(stt),
    exchange: paiseToRupees(exchange),
    sebi: paiseToRupees(sebi),
    stamp: paiseToRupees(stamp),
    gst: paiseToRupees(gst),
    total: paiseToRupees(total),
  };
}
