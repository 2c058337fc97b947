import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths, gstPaise, offerDiscountPaise, priceOf } from './pricing';

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

describe('offerDiscountPaise', () => {
  it('takes a fixed amount as it is and a percentage to the nearest paisa, halves up', () => {
    expect(offerDiscountPaise({ discount_bp: 1000, discount_paise: 50_000 }, 499_900)).toBe(50_000);
    expect(offerDiscountPaise({ discount_bp: 1000, discount_paise: null }, 499_900)).toBe(49_990);
    expect(offerDiscountPaise({ discount_bp: 1250, discount_paise: null }, 499_900)).toBe(62_488); // 62487.5 → 62488
  });

  it('any offer that leaves a price: the buyer pays taxable + GST on it, the discount never exceeds the price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 100_000_000 }),
        fc.oneof(
          fc.record({ discount_bp: fc.integer({ min: 1, max: 9_999 }), discount_paise: fc.constant(null) }),
          fc.record({
            discount_bp: fc.constant(1000),
            discount_paise: fc.integer({ min: 100, max: 100_000_000 }),
          }),
        ),
        (pricePaise, offer) => {
          const discount = offerDiscountPaise(offer, pricePaise);
          expect(Number.isSafeInteger(discount)).toBe(true);
          if (offer.discount_paise === null) expect(discount).toBeLessThanOrEqual(pricePaise);
          if (discount >= pricePaise) return; // checkout refuses such an offer (offerProblem)
          const price = priceOf({ price_paise: pricePaise, gst_rate_bp: 1800 }, discount);
          expect(price.totalPaise).toBe(pricePaise - discount + gstPaise(pricePaise - discount, 1800));
          expect(price.totalPaise).toBeLessThanOrEqual(
            priceOf({ price_paise: pricePaise, gst_rate_bp: 1800 }).totalPaise,
          );
        },
      ),
    );
  });
});
