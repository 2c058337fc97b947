import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  blackScholesDelta,
  blackScholesPrice,
  blackScholesVega,
  impliedVolatility,
  yearsBetween,
  YEAR_MS,
} from './blackScholes';
import type { OptionInputs } from './blackScholes';
import { normCdf } from './normal';

// Hull, Options, Futures and Other Derivatives, Example 15.6: S=42, K=40, r=10%, σ=20%, T=0.5
const hull = { spot: 42, strike: 40, rate: 0.1, volatility: 0.2, time: 0.5 };

describe('normCdf', () => {
  it('matches tabulated values', () => {
    expect(normCdf(0)).toBe(0.5);
    expect(normCdf(1)).toBeCloseTo(0.841344746068543, 13);
    expect(normCdf(-1.5)).toBeCloseTo(0.0668072012688581, 13);
    expect(normCdf(1.959963984540054)).toBeCloseTo(0.975, 13);
    // the far tail (continued-fraction branch) is accurate relatively, to about 1e-8
    expect(normCdf(-8) / 6.22096057427178e-16).toBeCloseTo(1, 7);
    expect(normCdf(40)).toBe(1);
  });
});

describe('Black–Scholes', () => {
  it('reproduces Hull: call 4.76, put 0.81', () => {
    expect(blackScholesPrice({ ...hull, type: 'CE' })).toBeCloseTo(4.7594, 4);
    expect(blackScholesPrice({ ...hull, type: 'PE' })).toBeCloseTo(0.8086, 4);
  });

  it('reproduces Hull delta (N(d1) = 0.7791) and vega', () => {
    expect(blackScholesDelta({ ...hull, type: 'CE' })).toBeCloseTo(0.7791, 4);
    expect(blackScholesDelta({ ...hull, type: 'PE' })).toBeCloseTo(0.7791 - 1, 4);
    // vega = S·φ(d1)·√T with d1 = 0.7693
    expect(blackScholesVega({ ...hull, type: 'CE' })).toBeCloseTo(42 * 0.29673 * Math.sqrt(0.5), 2);
  });

  it('satisfies put–call parity C − P = S·e^(−qT) − K·e^(−rT)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 50_000, noNaN: true }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 0.001, max: 3, noNaN: true }),
        fc.double({ min: 0.01, max: 1.5, noNaN: true }),
        fc.double({ min: 0, max: 0.15, noNaN: true }),
        fc.double({ min: 0, max: 0.05, noNaN: true }),
        (spot, moneyness, time, volatility, rate, dividendYield) => {
          const base = { spot, strike: spot * moneyness, time, volatility, rate, dividendYield };
          const call = blackScholesPrice({ ...base, type: 'CE' });
          const put = blackScholesPrice({ ...base, type: 'PE' });
          const forward = spot * Math.exp(-dividendYield * time) - base.strike * Math.exp(-rate * time);
          expect(call - put).toBeCloseTo(forward, 6 - Math.ceil(Math.log10(spot)));
        },
      ),
    );
  });

  it('is worth intrinsic value at expiry and has a 0/±1 delta', () => {
    expect(blackScholesPrice({ ...hull, time: 0, type: 'CE' })).toBe(2);
    expect(blackScholesPrice({ ...hull, time: 0, type: 'PE' })).toBe(0);
    expect(blackScholesDelta({ ...hull, time: 0, type: 'CE' })).toBe(1);
    expect(blackScholesDelta({ ...hull, time: 0, type: 'PE' })).toBe(0);
    expect(blackScholesVega({ ...hull, time: 0, type: 'CE' })).toBe(0);
  });

  it('converts a time span into years on a 365-day basis', () => {
    expect(yearsBetween(0, YEAR_MS / 2)).toBe(0.5);
    expect(yearsBetween(10, 0)).toBe(0);
  });
});

describe('impliedVolatility', () => {
  it('recovers Hull’s 20% from the call and put prices', () => {
    expect(impliedVolatility(4.759422392871532, { ...hull, type: 'CE' })).toBeCloseTo(0.2, 8);
    expect(impliedVolatility(0.8085993729000922, { ...hull, type: 'PE' })).toBeCloseTo(0.2, 8);
  });

  it('round-trips price → IV → price for NIFTY-like options', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('CE' as const, 'PE' as const),
        fc.integer({ min: -20, max: 20 }),
        fc.double({ min: 1 / 365 / 24, max: 0.25, noNaN: true }),
        fc.double({ min: 0.05, max: 1.2, noNaN: true }),
        (type, strikesAway, time, volatility) => {
          const inputs: OptionInputs = {
            type,
            spot: 24_000,
            strike: 24_000 + strikesAway * 50,
            time,
            volatility,
            rate: 0.065,
          };
          const price = blackScholesPrice(inputs);
          // below a paisa the price carries no information about volatility
          fc.pre(price > 0.01 && blackScholesVega(inputs) > 1e-3);
          const iv = impliedVolatility(price, inputs);
          expect(iv).not.toBeNull();
          expect(blackScholesPrice({ ...inputs, volatility: iv ?? 0 })).toBeCloseTo(price, 6);
        },
      ),
    );
  });

  it('returns null for prices outside the no-arbitrage bounds or after expiry', () => {
    expect(impliedVolatility(1, { ...hull, type: 'CE' })).toBeNull(); // below intrinsic
    expect(impliedVolatility(43, { ...hull, type: 'CE' })).toBeNull(); // above the spot
    expect(impliedVolatility(3, { ...hull, time: 0, type: 'CE' })).toBeNull();
  });
});
