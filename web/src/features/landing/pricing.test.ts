import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { formatInr } from '../../lib/format';
import { formatInrWhole, gstPaise, priceBreakdown, PLAN_PRICE_PAISE } from './pricing';

describe('plan pricing', () => {
  it('computes the monthly plan GST and total in paise', () => {
    expect(PLAN_PRICE_PAISE).toBe(499900);
    expect(priceBreakdown()).toEqual({ basePaise: 499900, gstPaise: 89982, totalPaise: 589882 });
  });

  it('formats the breakdown as Indian rupees', () => {
    const { basePaise, gstPaise: gst, totalPaise } = priceBreakdown();
    expect(formatInr(basePaise)).toBe('₹4,999.00');
    expect(formatInr(gst)).toBe('₹899.82');
    expect(formatInr(totalPaise)).toBe('₹5,898.82');
    expect(formatInrWhole(basePaise)).toBe('₹4,999');
  });

  it('uses lakh grouping for large amounts', () => {
    expect(formatInr(12345678)).toBe('₹1,23,456.78');
  });

  it('rounds GST half-up to the paisa', () => {
    expect(gstPaise(2)).toBe(0); // 0.36 paisa
    expect(gstPaise(3)).toBe(1); // 0.54 paisa
    expect(gstPaise(25)).toBe(5); // 4.5 paisa rounds up
    expect(gstPaise(1_299_900)).toBe(233_982);
  });

  it('matches exact rational GST within half a paisa for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (base) => {
        const gst = gstPaise(base);
        // Compare in hundredths of a paisa so the check itself is exact integer maths.
        const diff = gst * 100 - base * 18;
        expect(diff).toBeGreaterThan(-50);
        expect(diff).toBeLessThanOrEqual(50);
      }),
    );
  });

  it('rejects fractional or negative amounts', () => {
    expect(() => gstPaise(4999.5)).toThrow(RangeError);
    expect(() => gstPaise(-1)).toThrow(RangeError);
  });
});
