import { describe, expect, it } from 'vitest';
import {
  EMPTY_VALUE,
  formatCalendarDate,
  formatInr,
  formatInrRupees,
  formatIstDateTime,
  formatIstTime,
} from './format';

describe('formatInr (paise)', () => {
  it('formats the plan price, GST and total of spec §9', () => {
    expect(formatInr(499900)).toBe('₹4,999.00');
    expect(formatInr(89982)).toBe('₹899.82');
    expect(formatInr(589882)).toBe('₹5,898.82');
  });

  it('uses Indian digit grouping (lakh, crore)', () => {
    expect(formatInr(1234567800)).toBe('₹1,23,45,678.00');
    expect(formatInr(10000000)).toBe('₹1,00,000.00');
  });

  it('handles zero, negatives and non-finite input', () => {
    expect(formatInr(0)).toBe('₹0.00');
    expect(formatInr(-150050)).toBe('-₹1,500.50');
    expect(formatInr(Number.NaN)).toBe(EMPTY_VALUE);
  });
});

describe('formatInrRupees', () => {
  it('formats rupee amounts with two decimals', () => {
    expect(formatInrRupees(4999)).toBe('₹4,999.00');
    expect(formatInrRupees(123456.5)).toBe('₹1,23,456.50');
    expect(formatInrRupees(Number.POSITIVE_INFINITY)).toBe(EMPTY_VALUE);
  });
});

describe('IST date/time', () => {
  // 2025-11-23T09:00:05Z is 14:30:05 in India (UTC+05:30), whatever zone the test machine runs in.
  const iso = '2025-11-23T09:00:05.000Z';

  it('formats an ISO string in Asia/Kolkata', () => {
    expect(formatIstDateTime(iso)).toBe('23 Nov 2025, 14:30 IST');
    expect(formatIstTime(iso)).toBe('14:30:05 IST');
  });

  it('accepts epoch milliseconds', () => {
    const ms = Date.parse(iso);
    expect(formatIstDateTime(ms)).toBe('23 Nov 2025, 14:30 IST');
    expect(formatIstTime(ms)).toBe('14:30:05 IST');
  });

  it('rolls the date over at IST midnight, not UTC midnight', () => {
    // 18:45 UTC on the 31st is 00:15 on 1 Jan in India.
    expect(formatIstDateTime('2025-12-31T18:45:00Z')).toBe('01 Jan 2026, 00:15 IST');
    expect(formatIstTime('2025-12-31T18:30:00Z')).toBe('00:00:00 IST');
  });

  it('shows a dash for unparseable input', () => {
    expect(formatIstDateTime('not a date')).toBe(EMPTY_VALUE);
    expect(formatIstTime(Number.NaN)).toBe(EMPTY_VALUE);
  });
});

describe('formatCalendarDate', () => {
  it('shows an IST calendar date as it is, whatever the browser zone, with its weekday', () => {
    expect(formatCalendarDate('2027-01-01')).toBe('Fri, 01 Jan 2027');
    expect(formatCalendarDate('2026-11-23')).toBe('Mon, 23 Nov 2026');
  });

  it('shows a dash for anything but YYYY-MM-DD', () => {
    expect(formatCalendarDate('2027-13-01')).toBe(EMPTY_VALUE);
    expect(formatCalendarDate('1 Jan 2027')).toBe(EMPTY_VALUE);
  });
});
