import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCalendarData } from './calendarData';
import { expiryWeekdayOn, lotSizeFor, parseContractSpecs, underlyingSpec } from './contractSpecs';
import { createExchangeCalendar } from './exchangeCalendar';
import { createExpiryCalendar } from './expiry';
import { istDateTime } from './ist';

const readJson = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../data/${name}`, import.meta.url), 'utf8'));

const calendar = createExchangeCalendar(parseCalendarData(readJson('nse-calendar.json')));
const nifty = underlyingSpec(parseContractSpecs(readJson('nse-contracts.json')), 'NIFTY');
const expiries = createExpiryCalendar(calendar, nifty);

describe('weekly expiry', () => {
  it('is the Tuesday of the week in 2026', () => {
    expect(expiries.weeklyExpiry('2026-11-25')).toBe('2026-12-01');
    expect(expiries.weeklyExpiry('2026-12-01')).toBe('2026-12-01'); // expiry day itself
    expect(expiries.weeklyExpiry('2026-12-02')).toBe('2026-12-08');
  });

  it('moves to the previous trading day when the Tuesday is a holiday', () => {
    expect(expiries.weeklyExpiry('2026-11-18')).toBe('2026-11-23'); // 24 Nov holiday → Monday
    expect(expiries.weeklyExpiry('2026-11-23')).toBe('2026-11-23');
    expect(expiries.weeklyExpiry('2026-11-24')).toBe('2026-12-01');
    expect(expiries.weeklyExpiry('2026-03-01')).toBe('2026-03-02'); // Holi on Tuesday 3 Mar
  });

  it('was Thursday before 2 Sep 2025', () => {
    expect(expiries.weeklyExpiry('2025-08-25')).toBe('2025-08-28');
    expect(expiries.weeklyExpiry('2025-08-29')).toBe('2025-09-02');
    expect(expiries.weeklyExpiries('2025-08-20', 4)).toEqual([
      '2025-08-21',
      '2025-08-28',
      '2025-09-02',
      '2025-09-09',
    ]);
  });

  it('lists consecutive weekly expiries across holidays', () => {
    expect(expiries.weeklyExpiries('2026-11-17', 4)).toEqual([
      '2026-11-17',
      '2026-11-23',
      '2026-12-01',
      '2026-12-08',
    ]);
  });
});

describe('monthly expiry', () => {
  it('is the last Tuesday of the month, holiday-shifted', () => {
    expect(expiries.monthlyExpiry('2026-12-01')).toBe('2026-12-29');
    expect(expiries.monthlyExpiry('2026-11-02')).toBe('2026-11-23'); // last Tuesday 24 Nov is a holiday
    expect(expiries.monthlyExpiry('2026-03-10')).toBe('2026-03-30'); // 31 Mar holiday
    expect(expiries.monthlyExpiry('2026-12-30')).toBe('2027-01-26');
    expect(expiries.isMonthlyExpiry('2026-11-23')).toBe(true);
    expect(expiries.isMonthlyExpiry('2026-11-17')).toBe(false);
  });

  it('was the last Thursday before the switch', () => {
    expect(expiries.monthlyExpiry('2025-08-01')).toBe('2025-08-28');
    expect(expiries.monthlyExpiry('2025-09-01')).toBe('2025-09-30');
  });
});

describe('dated contract facts', () => {
  it('selects the lot size by the contract expiry date', () => {
    expect(lotSizeFor(nifty, '2024-11-14')).toBe(25);
    expect(lotSizeFor(nifty, '2024-11-28')).toBe(75);
    expect(lotSizeFor(nifty, '2025-12-30')).toBe(75);
    expect(expiries.lotSize('2026-01-06')).toBe(65);
  });

  it('reads tick size, strike step and the expiry weekday from data', () => {
    expect(expiries.tickSize).toBe(0.05);
    expect(expiries.strikeStep).toBe(50);
    expect(expiryWeekdayOn(nifty, '2025-09-01')).toBe(4);
    expect(expiryWeekdayOn(nifty, '2025-09-02')).toBe(2);
  });

  it('expires at the 15:30 IST close', () => {
    expect(expiries.expiryInstant('2026-12-01')).toBe(istDateTime('2026-12-01', '15:30'));
  });

  it('rejects undated later rows and rows out of order', () => {
    const spec = (lotSizes: unknown[]) => ({
      underlyings: {
        NIFTY: { strikeStep: 50, tickSize: 0.05, expiryWeekdays: [{ weekday: 'TUE' }], lotSizes },
      },
    });
    expect(() => parseContractSpecs(spec([{ lotSize: 25 }, { lotSize: 75 }]))).toThrow(
      'underlyings.NIFTY.lotSizes.1.effectiveFrom: only the first row may omit it',
    );
    expect(() =>
      parseContractSpecs(
        spec([
          { effectiveFrom: '2026-01-01', lotSize: 65 },
          { effectiveFrom: '2025-01-01', lotSize: 75 },
        ]),
      ),
    ).toThrow('rows must be in date order');
    expect(() => underlyingSpec(parseContractSpecs(spec([{ lotSize: 25 }])), 'SENSEX')).toThrow('"SENSEX"');
  });
});
