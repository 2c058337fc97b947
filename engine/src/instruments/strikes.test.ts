import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { atmStrike, roundToTick, selectStrike } from './strikes';

const listed = [23900, 23950, 24000, 24050, 24100];

describe('atmStrike', () => {
  it('picks the listed strike nearest the LTP', () => {
    expect(atmStrike(24012, listed)).toBe(24000);
    expect(atmStrike(24038, listed)).toBe(24050);
    expect(atmStrike(30000, listed)).toBe(24100);
  });

  it('breaks an exact tie towards the higher strike, like the fallback', () => {
    expect(atmStrike(24025, listed)).toBe(24050);
    expect(atmStrike(24025)).toBe(24050);
  });

  it('falls back to round(ltp / 50) * 50 without listed strikes', () => {
    expect(atmStrike(24012.3)).toBe(24000);
    expect(atmStrike(24076)).toBe(24100);
  });

  it('works with unevenly listed strikes', () => {
    expect(atmStrike(24060, [24000, 24100, 24200])).toBe(24100);
  });
});

describe('selectStrike', () => {
  it('buys CE one strike below ATM for a CALL and PE one strike above ATM for a PUT', () => {
    expect(selectStrike('CALL', 24012, listed)).toEqual({ strike: 23950, optionType: 'CE' });
    expect(selectStrike('PUT', 24012, listed)).toEqual({ strike: 24050, optionType: 'PE' });
  });

  it('uses the listed neighbour, not ATM ∓ 50, when strikes are 100 apart', () => {
    expect(selectStrike('CALL', 24012, [23800, 23900, 24000, 24100])).toEqual({
      strike: 23900,
      optionType: 'CE',
    });
  });

  it('uses ±50 without listed strikes', () => {
    expect(selectStrike('CALL', 24012)).toEqual({ strike: 23950, optionType: 'CE' });
    expect(selectStrike('PUT', 24012)).toEqual({ strike: 24050, optionType: 'PE' });
  });

  it('throws when ATM is the edge of the listed strikes', () => {
    expect(() => selectStrike('CALL', 23000, listed)).toThrow('no listed strike below ATM 23900');
    expect(() => selectStrike('PUT', 25000, listed)).toThrow('no listed strike above ATM 24100');
  });

  it('always selects an in-the-money strike', () => {
    fc.assert(
      fc.property(fc.double({ min: 1000, max: 50_000, noNaN: true }), (ltp) => {
        expect(selectStrike('CALL', ltp).strike).toBeLessThan(ltp);
        expect(selectStrike('PUT', ltp).strike).toBeGreaterThan(ltp);
      }),
    );
  });
});

describe('roundToTick', () => {
  it('snaps to 0.05 without floating residue', () => {
    expect(roundToTick(1.15, 0.05)).toBe(1.15);
    expect(roundToTick(101.37, 0.05)).toBe(101.35);
    expect(roundToTick(101.38, 0.05)).toBe(101.4);
    expect(roundToTick(0.1 + 0.2, 0.05)).toBe(0.3);
  });

  it('rounds up or down on request', () => {
    expect(roundToTick(101.31, 0.05, 'up')).toBe(101.35);
    expect(roundToTick(101.34, 0.05, 'down')).toBe(101.3);
    expect(roundToTick(101.35, 0.05, 'up')).toBe(101.35);
    expect(roundToTick(101.35, 0.05, 'down')).toBe(101.35);
  });

  it('always returns a multiple of the tick within one tick of the input', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100_000, noNaN: true }),
        fc.constantFrom('nearest' as const, 'up' as const, 'down' as const),
        (price, mode) => {
          const r = roundToTick(price, 0.05, mode);
          expect(Math.abs(r * 20 - Math.round(r * 20))).toBeLessThan(1e-6);
          expect(Math.abs(r - price)).toBeLessThanOrEqual(0.05 + 1e-9);
          if (mode === 'up') expect(r).toBeGreaterThanOrEqual(price - 1e-9);
          if (mode === 'down') expect(r).toBeLessThanOrEqual(price + 1e-9);
        },
      ),
    );
  });

  it('rejects a non-positive tick', () => {
    expect(() => roundToTick(1, 0)).toThrow(RangeError);
  });
});
