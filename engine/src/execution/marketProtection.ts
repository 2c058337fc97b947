import { roundToTick } from '../instruments/strikes';
import type { OrderSide, OrderType } from './orderTypes';

/**
 * Market price protection (DOMAIN.md §1): from 1 Apr 2026 brokers refuse or rewrite raw MARKET and SL-M orders
 * sent through APIs. The engine sends a limit (or a stop-limit for SL-M) a few percent *through* the reference
 * price instead, so it still fills at once but can never fill at an absurd price in a thin option book.
 */

/** One price slab: references below `below` (rupees) use `percent`. The last slab has `below: Infinity`. */
export interface ProtectionBand {
  readonly below: number;
  readonly percent: number;
}

/**
 * Protection bands for index options by premium slab, as reported for the exchanges' market-protection rule
 * (5% / 3% / 2% / 1%, DOMAIN.md §1 — **verify** against the current circular; pass another table to change).
 */
export const OPTION_PROTECTION_BANDS: readonly ProtectionBand[] = [
  { below: 10, percent: 5 },
  { below: 100, percent: 3 },
  { below: 500, percent: 2 },
  { below: Number.POSITIVE_INFINITY, percent: 1 },
];

/** The protection percent for a reference price. */
export function protectionPercent(
  reference: number,
  bands: readonly ProtectionBand[] = OPTION_PROTECTION_BANDS,
): number {
  const band = bands.find((b) => reference < b.below) ?? bands[bands.length - 1];
  if (band === undefined) throw new RangeError('protection bands are empty');
  return band.percent;
}

/** The order fields protection looks at. */
export interface ProtectableOrder {
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly price?: number;
  readonly triggerPrice?: number;
}

/** The fields to send after protection. */
export interface ProtectedFields {
  readonly type: OrderType;
  readonly price?: number;
  readonly triggerPrice?: number;
}

/**
 * Turns MARKET into LIMIT and SL-M into SL with a limit `percent` through the reference (the LTP for MARKET, the
 * trigger for SL-M), the percent chosen by the reference's price slab. LIMIT and SL pass through unchanged.
 *
 * Snapping goes in the safe direction: *inside* the band (a BUY limit rounds down, a SELL limit up), so the
 * protection never allows a worse price than the band — but always at least one tick through the reference, so
 * the order stays marketable even where the band is narrower than a tick. A SELL limit never goes below one tick.
 */
export function toProtectedLimit(
  order: ProtectableOrder,
  ltp: number,
  tickSize: number,
  bands: readonly ProtectionBand[] = OPTION_PROTECTION_BANDS,
): ProtectedFields {
  if (order.type === 'LIMIT' || order.type === 'SL') {
    return { type: order.type, price: order.price, triggerPrice: order.triggerPrice };
  }
  const reference = order.type === 'SL-M' ? order.triggerPrice : ltp;
  if (reference === undefined || !(reference > 0)) {
    throw new RangeError(`cannot protect a ${order.type} order without a positive reference price`);
  }
  const fraction = protectionPercent(reference, bands) / 100;
  let price: number;
  if (order.side === 'BUY') {
    const oneTickThrough = roundToTick(reference, tickSize, 'up') + tickSize;
    price = Math.max(
      roundToTick(reference * (1 + fraction), tickSize, 'down'),
      roundToTick(oneTickThrough, tickSize, 'nearest'),
    );
  } else {
    const oneTickThrough = roundToTick(reference, tickSize, 'down') - tickSize;
    price = Math.min(
      roundToTick(reference * (1 - fraction), tickSize, 'up'),
      roundToTick(oneTickThrough, tickSize, 'nearest'),
    );
    price = Math.max(price, tickSize);
  }
  return order.type === 'SL-M'
    ? { type: 'SL', price, triggerPrice: order.triggerPrice }
    : { type: 'LIMIT', price };
}

/** True when a broker with these capabilities needs `order` rewritten by `toProtectedLimit`. */
export function needsProtection(
  type: OrderType,
  capabilities: {
    readonly requiresMarketProtection: boolean;
    readonly supportsMarketOrders: boolean;
    readonly supportsSlm: boolean;
  },
): boolean {
  if (type === 'MARKET') return capabilities.requiresMarketProtection || !capabilities.supportsMarketOrders;
  if (type === 'SL-M') return capabilities.requiresMarketProtection || !capabilities.supportsSlm;
  return false;
}
