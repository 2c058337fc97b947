import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths, gstPaise, priceOf } from './pricing';

describe('gstPaise', () => {
  it('prices the monthly plan as the spec does: 499900 → 89982 → 589882', () => {
    expect(gstPaise(499_900, 1800)).toBe(89_982);
    expect(priceOf({ price_paise: 499_900, gst_rate_bp: 1800 })).toEqual({
      basePaise: 499_900,
      discountPaise: 0,
      gstPaise: 89_982,
      totalPaise: 589_882,
    });
  });

  it('rounds to the nearest paisa, halves up', () => {
    expect(gstPaise(1, 5000)).toBe(1); // 0.5 → 1
    expect(gstPaise(1, 4999)).toBe(0); // 0.4999 → 0
    expect(gstPaise(25, 1800)).toBe(5); // 4.5 → 5
    expect(gstPaise(24, 1800)).toBe(4); // 4.32 → 4
    expect(gstPaise(0, 1800)).toBe(0);
  });

  it('equals exact rational rounding (half up) for any amount and rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (base, rate) => {
          const exactTimes2 = BigInt(base) * BigInt(rate) * 2n; // 2 × base × rate, compare with 10000 × (2g ± 1)
          const g = BigInt(gstPaise(base, rate));
          // g − ½ ≤ base·rate/10000 < g + ½
          expect(exactTimes2 >= (2n * g - 1n) * 10_000n).toBe(true);
          expect(exactTimes2 < (2n * g + 1n) * 10_000n).toBe(true);
        },
      ),
    );
  });

  it('refuses fractional or negative inputs instead of rounding them silently', () => {
    expect(() => gstPaise(1.5, 1800)).toThrow(RangeError);
    expect(() => gstPaise(-1, 1800)).toThrow(RangeError);
    expect(() => gstPaise(100, 18.5)).toThrow(RangeError);
  });

  it('taxes the discounted price', () => {
    expect(priceOf({ price_paise: 499_900, gst_rate_bp: 1800 }, 49_990)).toEqual({
      basePaise: 499_900,
      discountPaise: 49_990,
      gstPaise: 80_984, // 449910 × 18% = 80983.8 → 80984
      totalPaise: 530_894,
    });
  });
});

describe('addMonths', () => {
  it('adds calendar months and clamps to the last day of a shorter month', () => {
    expect(new Date(addMonths(Date.UTC(2026, 0, 31, 6), 1)).toISOString()).toBe('2026-02-28T06:00:00.000Z');
    expect(new Date(addMonths(Date.UTC(2028, 0, 31, 6), 1)).toISOString()).toBe('2028-02-29T06:00:00.000Z');
    expect(new Date(addMonths(Date.UTC(2026, 11, 15), 1)).toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(new Date(addMonths(Date.UTC(2026, 2, 10), 12)).toISOString()).toBe('2027-03-10T00:00:00.000Z');
  });
});
