// What Upstox accepts and how fast orders may be sent (DOMAIN.md §3).
import type { BrokerCapabilities, RateWindow } from '@optionpilot/engine';
import { UPSTOX_TAG_MAX_LENGTH } from './orderStatus';

/** NIFTY's exchange freeze quantity (DOMAIN.md §1, **verify**); the router splits larger orders into legs. */
export const UPSTOX_DEFAULT_FREEZE_QTY = 1_800;

/** What Upstox accepts (DOMAIN.md §3): 10/s and 500/min per user per API, tags ≤ 40, protected orders only. */
export function upstoxCapabilities(freezeQty = UPSTOX_DEFAULT_FREEZE_QTY): BrokerCapabilities {
  return {
    name: 'upstox',
    supportsMarketOrders: true,
    supportsSlm: true,
    // Raw MARKET / SL-M from APIs are blocked (UDAPI1158) since 1 Apr 2026: the router sends protected limits.
    requiresMarketProtection: true,
    rateLimits: { perSecond: 10, perMinute: 500 },
    freezeQty,
    tagMaxLength: UPSTOX_TAG_MAX_LENGTH,
  };
}

/**
 * Upstox's order-API limits as it counts them (10/s, 500/min, 2,000 per 30 min per user per API), held again
 * where calls are sent, by when they finished (see `sendPacer.ts`): the router's own limiter grants slots before
 * `placeOrder` runs, and delays after the grant can bunch calls at Upstox.
 */
export const UPSTOX_SEND_WINDOWS: readonly RateWindow[] = [
  { limit: 10, windowMs: 1_000 },
  { limit: 500, windowMs: 60_000 },
  { limit: 2_000, windowMs: 30 * 60_000 },
];
