import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CalendarDataError, calendarWarnings, loadCalendarData, parseCalendarData } from './calendarData';
import { istDateTime } from './ist';

const shipped: unknown = JSON.parse(
  readFileSync(new URL('../../data/nse-calendar.json', import.meta.url), 'utf8'),
);

function minimal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    exchange: 'NSE',
    timezone: 'Asia/Kolkata',
    regularSession: { open: '09:15', close: '15:30' },
    years: { '2026': { holidays: [{ date: '2026-01-26', name: 'Republic Day' }] } },
    ...overrides,
  };
}

describe('calendar data file', () => {
  it('ships a valid file with the sixteen 2026 NSE holidays', () => {
    const data = parseCalendarData(shipped);
    expect(data.years['2026']?.holidays.map((h) => h.date)).toEqual([
      '2026-01-15',
      '2026-01-26',
      '2026-03-03',
      '2026-03-26',
      '2026-03-31',
      '2026-04-03',
      '2026-04-14',
      '2026-05-01',
      '2026-05-28',
      '2026-06-26',
      '2026-09-14',
      '2026-10-02',
      '2026-10-20',
      '2026-11-10',
      '2026-11-24',
      '2026-12-25',
    ]);
  });

  it('stores the 2026 Muhurat session without invented times', () => {
    const muhurat = parseCalendarData(shipped).years['2026']?.specialSessions[0];
    expect(muhurat).toMatchObject({ date: '2026-11-08', times: 'pending' });
    expect(muhurat).not.toHaveProperty('open');
  });

  it('defaults a missing specialSessions list to empty', () => {
    expect(parseCalendarData(minimal()).years['2026']?.specialSessions).toEqual([]);
  });

  it('names every bad field with its path', () => {
    const bad = minimal({
      years: {
        '2026': {
          holidays: [{ date: '2026-02-30' }, { date: '2025-12-25' }, { date: '2025-12-25' }],
          specialSessions: [
            { date: '2026-11-08', name: 'Muhurat', times: 'announced', open: '19:00', close: '18:00' },
          ],
        },
      },
    });
    let error: unknown;
    try {
      parseCalendarData(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CalendarDataError);
    const issues = (error as CalendarDataError).issues;
    expect(issues).toContain('years.2026.holidays.0.date: must be a real calendar date written YYYY-MM-DD');
    expect(issues).toContain('years.2026.holidays.1.date: 2025-12-25 is not in 2026');
    expect(issues).toContain('years.2026.holidays.2.date: 2025-12-25 is listed twice');
    expect(issues).toContain('years.2026.specialSessions.0.open: open must be before close');
  });

  it('rejects a time zone other than IST and a malformed session time', () => {
    expect(() => parseCalendarData(minimal({ timezone: 'UTC' }))).toThrow(/timezone/);
    expect(() => parseCalendarData(minimal({ regularSession: { open: '9:15', close: '15:30' } }))).toThrow(
      /regularSession\.open: must be a 24-hour time/,
    );
  });

  it('warns, without throwing, when the current year is missing', () => {
    const { warnings } = loadCalendarData(minimal(), { now: istDateTime('2027-03-01', '10:00') });
    expect(warnings).toEqual([expect.stringContaining('calendar has no entry for 2027')]);
  });

  it('does not warn about a year that is present', () => {
    expect(calendarWarnings(parseCalendarData(minimal()), istDateTime('2026-06-01', '10:00'))).toEqual([]);
  });

  it('reminds in December that next year is missing', () => {
    const warnings = calendarWarnings(parseCalendarData(minimal()), istDateTime('2026-12-01', '10:00'));
    expect(warnings).toEqual([expect.stringContaining('no entry for 2027 yet')]);
  });

  it('warns about an upcoming special session whose times are pending, but not a past one', () => {
    const data = parseCalendarData(shipped);
    expect(calendarWarnings(data, istDateTime('2026-11-01', '10:00'))).toEqual([
      expect.stringContaining('"Muhurat trading (Diwali)" on 2026-11-08 has no announced times'),
    ]);
    expect(calendarWarnings(data, istDateTime('2026-11-09', '10:00'))).toEqual([]);
  });
});
