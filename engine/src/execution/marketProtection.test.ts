import { describe, expect, it } from 'vitest';
import { needsProtection, protectionPercent, toProtectedLimit } from './marketProtection';

describe('toProtectedLimit', () => {
  const cases = [
    {
      name: 'BUY MARKET at 100 (2% slab)',
      order: { side: 'BUY', type: 'MARKET' },
      ltp: 100,
      expected: { type: 'LIMIT', price: 102 },
    },
    {
      name: 'BUY MARKET at 99.95 (3% slab, floored)',
      order: { side: 'BUY', type: 'MARKET' },
      ltp: 99.95,
      expected: { type: 'LIMIT', price: 102.9 },
    },
    {
      name: 'SELL MARKET at 99.95 (3% slab, ceiled)',
      order: { side: 'SELL', type: 'MARKET' },
      ltp: 99.95,
      expected: { type: 'LIMIT', price: 97 },
    },
    {
      name: 'BUY MARKET at 5 (5% slab)',
      order: { side: 'BUY', type: 'MARKET' },
      ltp: 5,
      expected: { type: 'LIMIT', price: 5.25 },
    },
    {
      name: 'BUY MARKET at 600 (1% slab)',
      order: { side: 'BUY', type: 'MARKET' },
      ltp: 600,
      expected: { type: 'LIMIT', price: 606 },
    },
    {
      name: 'BUY MARKET at 0.50: band under a tick, still one tick through',
      order: { side: 'BUY', type: 'MARKET' },
      ltp: 0.5,
      expected: { type: 'LIMIT', price: 0.55 },
    },
    {
      name: 'SELL MARKET at 0.05 never goes below one tick',
      order: { side: 'SELL', type: 'MARKET' },
      ltp: 0.05,
      expected: { type: 'LIMIT', price: 0.05 },
    },
    {
      name: 'SELL SL-M trigger 80 becomes a stop-limit 3% through the trigger',
      order: { side: 'SELL', type: 'SL-M', triggerPrice: 80 },
      ltp: 95,
      expected: { type: 'SL', price: 77.6, triggerPrice: 80 },
    },
    {
      name: 'BUY SL-M trigger 120 becomes a stop-limit 2% through the trigger',
      order: { side: 'BUY', type: 'SL-M', triggerPrice: 120 },
      ltp: 110,
      expected: { type: 'SL', price: 122.4, triggerPrice: 120 },
    },
    {
      name: 'LIMIT passes through',
      order: { side: 'BUY', type: 'LIMIT', price: 99 },
      ltp: 100,
      expected: { type: 'LIMIT', price: 99 },
    },
  ] as const;

  it.each(cases)('$name', ({ order, ltp, expected }) => {
    expect(toProtectedLimit(order, ltp, 0.05)).toMatchObject(expected);
  });

  it('uses the band table it is given', () => {
    const bands = [{ below: Number.POSITIVE_INFINITY, percent: 10 }];
    expect(toProtectedLimit({ side: 'BUY', type: 'MARKET' }, 100, 0.05, bands)).toEqual({
      type: 'LIMIT',
      price: 110,
    });
    expect(protectionPercent(50, bands)).toBe(10);
  });

  it('refuses to protect without a reference price', () => {
    expect(() => toProtectedLimit({ side: 'BUY', type: 'MARKET' }, 0, 0.05)).toThrow(RangeError);
    expect(() => toProtectedLimit({ side: 'SELL', type: 'SL-M' }, 100, 0.05)).toThrow(RangeError);
  });
});

describe('needsProtection', () => {
  const open = { requiresMarketProtection: false, supportsMarketOrders: true, supportsSlm: true };
  it.each([
    ['MARKET', open, false],
    ['MARKET', { ...open, requiresMarketProtection: true }, true],
    ['MARKET', { ...open, supportsMarketOrders: false }, true],
    ['SL-M', { ...open, supportsSlm: false }, true],
    ['LIMIT', { ...open, requiresMarketProtection: true }, false],
  ] as const)('%s with %o → %s', (type, capabilities, expected) => {
    expect(needsProtection(type, capabilities)).toBe(expected);
  });
});
