import { describe, expect, it } from 'vitest';
import { accountRateWindows, CLIENT_ORDER_ID_LENGTH } from '@optionpilot/engine';
import { UPSTOX_SEND_WINDOWS, upstoxCapabilities } from './capabilities';

describe('upstox capabilities', () => {
  it('asks the router for protected orders, Upstox rate limits and room for the client order id in the tag', () => {
    const caps = upstoxCapabilities();
    expect(caps.requiresMarketProtection).toBe(true);
    expect(caps.freezeQty).toBe(1_800);
    expect(caps.tagMaxLength).toBe(40);
    expect(caps.tagMaxLength).toBeGreaterThan(CLIENT_ORDER_ID_LENGTH);
    expect(accountRateWindows(caps.rateLimits)).toEqual([
      { limit: 10, windowMs: 1_000 },
      { limit: 500, windowMs: 60_000 },
    ]);
    expect(upstoxCapabilities(1_755).freezeQty).toBe(1_755);
  });

  it('holds all three of Upstox order-API windows where calls are sent', () => {
    expect(UPSTOX_SEND_WINDOWS).toEqual([
      { limit: 10, windowMs: 1_000 },
      { limit: 500, windowMs: 60_000 },
      { limit: 2_000, windowMs: 1_800_000 },
    ]);
  });
});
