import { describe, expect, it } from 'vitest';
import { blackScholesPrice, YEAR_MS } from '../pricing/blackScholes';
import { createPremiumModel } from './premiumModel';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('createPremiumModel', () => {
  const model = createPremiumModel({ iv: 0.14 });

  it('prices with Black–Scholes at the flat IV and 6.5% rate, snapped to ₹0.05', () => {
    const exact = blackScholesPrice({
      type: 'CE',
      spot: 23_524,
      strike: 23_450,
      time: (6 * DAY_MS) / YEAR_MS,
      volatility: 0.14,
      rate: 0.065,
    });
    const ltp = model.ltp('CE', 23_524, 23_450, 6 * DAY_MS);
    expect(Math.abs(ltp - exact)).toBeLessThanOrEqual(0.025 + 1e-9);
    expect(Math.round(ltp * 20)).toBeCloseTo(ltp * 20, 9);
  });

  it('is worth intrinsic value at and after expiry, and never less than one tick', () => {
    expect(model.ltp('PE', 23_500, 23_650, 0)).toBe(150);
    expect(model.ltp('CE', 23_500, 23_650, -1)).toBe(0.05);
    expect(model.ltp('CE', 20_000, 25_000, DAY_MS)).toBe(0.05);
  });

  it('buys at the ask plus slippage and sells at the bid minus slippage, on the tick grid', () => {
    // half-spread max(0.05, 0.25% × 200) = 0.5, slippage 1 tick
    expect(model.buyFill(200)).toBe(200.55);
    expect(model.sellFill(200)).toBe(199.45);
    // cheap options pay at least a tick of half-spread, and a sell never goes below one tick
    expect(model.buyFill(4)).toBe(4.1);
    expect(model.sellFill(0.05)).toBe(0.05);
    const noCosts = createPremiumModel({ iv: 0.14, halfSpread: 0, slippageTicks: 0 });
    expect(noCosts.buyFill(123.45)).toBe(123.45);
    expect(noCosts.sellFill(123.45)).toBe(123.45);
  });

  it('rejects an IV outside (0, 5]', () => {
    expect(() => createPremiumModel({ iv: 0 })).toThrow(RangeError);
    expect(() => createPremiumModel({ iv: 14 })).toThrow(RangeError);
  });
});
