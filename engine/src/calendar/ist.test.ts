import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDays,
  formatHhMm,
  formatIst,
  istDate,
  istDateTime,
  istMidnight,
  istMidnightOf,
  msSinceIstMidnight,
  parseDate,
  parseHhMm,
  toIstParts,
  weekdayOf,
} from './ist';

describe('IST conversion', () => {
  it('adds five and a half hours to UTC', () => {
    // 2026-11-23T03:45:00Z is 09:15 IST on a Monday
    const p = toIstParts(Date.UTC(2026, 10, 23, 3, 45, 7, 250));
    expect(p).toEqual({
      year: 2026,
      month: 11,
      day: 23,
      hour: 9,
      minute: 15,
      second: 7,
      millisecond: 250,
      weekday: 1,
      minuteOfDay: 555,
    });
  });

  it('rolls the date over at 18:30 UTC', () => {
    expect(istDate(Date.UTC(2026, 0, 14, 18, 29, 59, 999))).toBe('2026-01-14');
    expect(istDate(Date.UTC(2026, 0, 14, 18, 30))).toBe('2026-01-15');
  });

  it('converts IST wall-clock times to epoch ms', () => {
    expect(istDateTime('2026-11-23', '09:15')).toBe(Date.UTC(2026, 10, 23, 3, 45));
    expect(istDateTime('2026-11-23', 900)).toBe(Date.UTC(2026, 10, 23, 9, 30));
    expect(istMidnight('2026-01-01')).toBe(Date.UTC(2025, 11, 31, 18, 30));
  });

  it('round-trips any instant through date + ms since midnight (independent of TZ)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (t) => {
        expect(istMidnight(istDate(t)) + msSinceIstMidnight(t)).toBe(t);
        expect(istMidnightOf(t)).toBe(istMidnight(istDate(t)));
      }),
    );
  });

  it('does calendar arithmetic across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(weekdayOf('2026-11-08')).toBe(0);
    expect(weekdayOf('2026-12-01')).toBe(2);
  });

  it('parses and formats HH:MM', () => {
    expect(parseHhMm('15:30')).toBe(930);
    expect(formatHhMm(555)).toBe('09:15');
    expect(() => parseHhMm('9:15')).toThrow('"9:15" is not an HH:MM time');
    expect(() => parseHhMm('24:00')).toThrow(RangeError);
  });

  it('rejects dates that do not exist', () => {
    expect(() => parseDate('2026-02-29')).toThrow('not a real calendar date');
    expect(() => parseDate('26-02-01')).toThrow('not a YYYY-MM-DD date');
    expect(parseDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
  });

  it('formats an instant for logs in IST', () => {
    expect(formatIst(Date.UTC(2026, 10, 23, 9, 30, 5))).toBe('2026-11-23 15:00:05 IST');
  });
});
