import { describe, expect, it } from 'vitest';
import { istMonthStart, istQuarterStart, likePattern, windowOf, WEEK_MS } from './listing';

// 02:00 IST on 1 Feb 2026 is still 31 Jan in UTC: the IST calendar decides.
const EARLY_FEB_IST = Date.UTC(2026, 0, 31, 20, 30);
const IST_MIDNIGHT_1_FEB = Date.UTC(2026, 0, 31, 18, 30);

describe('admin list windows', () => {
  it('month and quarter start at IST midnight of their first day', () => {
    expect(istMonthStart(EARLY_FEB_IST)).toBe(IST_MIDNIGHT_1_FEB);
    expect(istQuarterStart(EARLY_FEB_IST)).toBe(Date.UTC(2025, 11, 31, 18, 30));
    expect(istQuarterStart(Date.UTC(2026, 10, 10))).toBe(Date.UTC(2026, 8, 30, 18, 30));
  });

  it('today is the IST day, week the last 10080 minutes, all unbounded', () => {
    expect(windowOf({ period: 'today' }, EARLY_FEB_IST)).toEqual({ from: IST_MIDNIGHT_1_FEB, to: null });
    expect(windowOf({ period: 'week' }, EARLY_FEB_IST)).toEqual({ from: EARLY_FEB_IST - WEEK_MS, to: null });
    expect(WEEK_MS).toBe(10_080 * 60_000);
    expect(windowOf({ period: 'all' }, EARLY_FEB_IST)).toEqual({ from: null, to: null });
  });

  it('from/to are inclusive IST days that narrow the period', () => {
    expect(windowOf({ period: 'all', from: '2026-02-01', to: '2026-02-01' }, EARLY_FEB_IST)).toEqual({
      from: IST_MIDNIGHT_1_FEB,
      to: IST_MIDNIGHT_1_FEB + 86_400_000,
    });
    // A `from` before the month's start does not widen "this month".
    expect(windowOf({ period: 'month', from: '2025-01-01' }, EARLY_FEB_IST).from).toBe(IST_MIDNIGHT_1_FEB);
  });

  it('escapes LIKE wildcards in a search term', () => {
    expect(likePattern('50%_Off')).toBe('%50\\%\\_off%');
  });
});
