import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatOptionSymbol, parseOptionSymbol } from './optionSymbol';

describe('canonical option symbols', () => {
  it('formats NIFTY{DDMMMYY}{strike}{CE|PE}', () => {
    expect(
      formatOptionSymbol({ underlying: 'NIFTY', expiry: '2026-12-01', strike: 24000, optionType: 'CE' }),
    ).toBe('NIFTY01DEC2624000CE');
    expect(
      formatOptionSymbol({ underlying: 'NIFTY', expiry: '2026-11-23', strike: 9950, optionType: 'PE' }),
    ).toBe('NIFTY23NOV269950PE');
  });

  it('parses a canonical symbol', () => {
    expect(parseOptionSymbol('NIFTY01DEC2624000CE')).toEqual({
      underlying: 'NIFTY',
      expiry: '2026-12-01',
      strike: 24000,
      optionType: 'CE',
    });
  });

  it('rejects broker symbols and impossible dates', () => {
    expect(parseOptionSymbol('NIFTY26D0124000CE')).toBeNull(); // Kite weekly format
    expect(parseOptionSymbol('NIFTY26DEC24000CE')).toBeNull(); // Kite monthly format
    expect(parseOptionSymbol('NIFTY31NOV2624000CE')).toBeNull();
    expect(parseOptionSymbol('NIFTY01DEC2624000XE')).toBeNull();
  });

  it('refuses to format invalid parts', () => {
    expect(() =>
      formatOptionSymbol({ underlying: 'NIFTY', expiry: '2026-12-01', strike: 24000.5, optionType: 'CE' }),
    ).toThrow('positive integer');
    expect(() =>
      formatOptionSymbol({ underlying: 'nifty', expiry: '2026-12-01', strike: 24000, optionType: 'CE' }),
    ).toThrow('capital letters');
  });

  it('round-trips every valid contract', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('NIFTY', 'BANKNIFTY', 'SENSEX'),
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.constantFrom('CE' as const, 'PE' as const),
        (underlying, date, strike, optionType) => {
          const parts = { underlying, expiry: date.toISOString().slice(0, 10), strike, optionType };
          expect(parseOptionSymbol(formatOptionSymbol(parts))).toEqual(parts);
        },
      ),
    );
  });
});
