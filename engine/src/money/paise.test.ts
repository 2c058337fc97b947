import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  basisPointsOfPaise,
  formatPaise,
  formatPaiseWhole,
  paiseToRupees,
  parseRupeesToPaise,
  rupeesToPaise,
  roundToPaisa,
} from './paise';

/** Whole paise up to ₹1,000 crore, either sign: far beyond any premium, P&L or price the product handles. */
const paise = fc.integer({ min: -1e12, max: 1e12 });

describe('rupeesToPaise', () => {
  it('rounds to the nearest paisa and leaves no float noise', () => {
    expect(rupeesToPaise(100.05)).toBe(10_005);
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30);
    expect(rupeesToPaise(123.456)).toBe(12_346);
    expect(rupeesToPaise(123.454)).toBe(12_345);
    expect(rupeesToPaise(-5.5)).toBe(-550);
  });

  it('never returns −0', () => {
    expect(Object.is(rupeesToPaise(-0.001), 0)).toBe(true);
    expect(Object.is(rupeesToPaise(-0), 0)).toBe(true);
  });

  it('returns a whole number for any finite rupee amount', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (rupees) => {
        expect(Number.isInteger(rupeesToPaise(rupees))).toBe(true);
        expect(Math.abs(rupeesToPaise(rupees) - rupees * 100)).toBeLessThanOrEqual(0.5 + 1e-6);
      }),
    );
  });
});

describe('paiseToRupees', () => {
  it('converts whole paise to rupees', () => {
    expect(paiseToRupees(10_005)).toBe(100.05);
    expect(paiseToRupees(-1)).toBe(-0.01);
    expect(paiseToRupees(0)).toBe(0);
  });

  it('rounds a fraction of a paisa off first', () => {
    expect(paiseToRupees(10_004.6)).toBe(100.05);
  });

  it('round-trips every whole number of paise exactly', () => {
    fc.assert(
      fc.property(paise, (p) => {
        expect(rupeesToPaise(paiseToRupees(p))).toBe(p);
      }),
    );
  });

  it('gives the shortest decimal: sums of paise carry no float noise once converted', () => {
    fc.assert(
      fc.property(paise, paise, (a, b) => {
        const rupees = paiseToRupees(a + b);
        expect(String(rupees)).toBe(String((a + b) / 100));
        expect(rupees.toFixed(2)).toBe(
          `${a + b < 0 ? '-' : ''}${Math.floor(Math.abs(a + b) / 100)}.${String(Math.abs(a + b) % 100).padStart(2, '0')}`,
        );
      }),
    );
  });
});

describe('roundToPaisa', () => {
  it('rounds rupees to the paisa and stays in rupees', () => {
    expect(roundToPaisa(123.456)).toBe(123.46);
    expect(roundToPaisa(0.1 + 0.2)).toBe(0.3);
    expect(roundToPaisa(99.994999)).toBe(99.99);
  });

  it('is idempotent and within half a paisa of its input', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (rupees) => {
        const rounded = roundToPaisa(rupees);
        expect(roundToPaisa(rounded)).toBe(rounded);
        expect(Math.abs(rounded - rupees)).toBeLessThanOrEqual(0.005 + 1e-6);
        expect(Number.isInteger(rupeesToPaise(rounded))).toBe(true);
      }),
    );
  });
});

describe('parseRupeesToPaise', () => {
  it('reads amounts as people type them', () => {
    expect(parseRupeesToPaise('5,898.82')).toBe(589_882);
    expect(parseRupeesToPaise('1,23,456.7')).toBe(12_345_670);
    expect(parseRupeesToPaise(' 4999 ')).toBe(499_900);
    expect(parseRupeesToPaise('0.1')).toBe(10);
  });

  it('refuses what is not a non-negative amount to the paisa', () => {
    for (const text of ['', '12.345', '-5', '₹5', '1e3', 'abc', '.5', '5.']) {
      expect(parseRupeesToPaise(text)).toBeNaN();
    }
  });

  it('reads back what formatting writes, for any non-negative whole paise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (p) => {
        expect(parseRupeesToPaise(formatPaise(p).replace('₹', ''))).toBe(p);
        expect(parseRupeesToPaise(paiseToRupees(p).toFixed(2))).toBe(p);
      }),
    );
  });
});

describe('basisPointsOfPaise', () => {
  it('takes a share to the nearest paisa, halves up', () => {
    expect(basisPointsOfPaise(499_900, 1800)).toBe(89_982);
    expect(basisPointsOfPaise(1, 5000)).toBe(1);
    expect(basisPointsOfPaise(1, 4999)).toBe(0);
    expect(basisPointsOfPaise(25, 1800)).toBe(5);
    expect(basisPointsOfPaise(0, 1800)).toBe(0);
  });

  it('equals exact integer arithmetic', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e10 }), fc.integer({ min: 0, max: 10_000 }), (base, bp) => {
        const exact = (BigInt(base) * BigInt(bp) * 2n + 10_000n) / 20_000n;
        expect(BigInt(basisPointsOfPaise(base, bp))).toBe(exact);
      }),
    );
  });

  it('refuses fractions, negatives and overflow', () => {
    expect(() => basisPointsOfPaise(1.5, 1800)).toThrow(RangeError);
    expect(() => basisPointsOfPaise(-1, 1800)).toThrow(RangeError);
    expect(() => basisPointsOfPaise(100, 18.5)).toThrow(RangeError);
    expect(() => basisPointsOfPaise(Number.MAX_SAFE_INTEGER, 2)).toThrow(RangeError);
  });
});

describe('formatPaise', () => {
  it('writes rupees with Indian digit grouping', () => {
    expect(formatPaise(589_882)).toBe('₹5,898.82');
    expect(formatPaise(12_345_678)).toBe('₹1,23,456.78');
    expect(formatPaise(1_000_000_000)).toBe('₹1,00,00,000.00');
    expect(formatPaise(0)).toBe('₹0.00');
    expect(formatPaise(-100)).toBe('-₹1.00');
  });

  it('writes whole rupees for headline figures', () => {
    expect(formatPaiseWhole(499_900)).toBe('₹4,999');
    expect(formatPaiseWhole(12_345_600)).toBe('₹1,23,456');
  });

  it('refuses a fraction of a paisa', () => {
    expect(() => formatPaise(1.5)).toThrow(RangeError);
    expect(() => formatPaise(Number.NaN)).toThrow(RangeError);
    expect(() => formatPaiseWhole(1.5)).toThrow(RangeError);
  });
});
