import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCalendarData } from './calendarData';
import type { CalendarData } from './calendarData';
import { createExchangeCalendar } from './exchangeCalendar';
import { alwaysOpenCalendar } from './alwaysOpenCalendar';
import { istDateTime } from './ist';

const data = parseCalendarData(
  JSON.parse(readFileSync(new URL('../../data/nse-calendar.json', import.meta.url), 'utf8')),
);
const calendar = createExchangeCalendar(data);
const at = (date: string, hhmm: string, plusMs = 0) => istDateTime(date, hhmm) + plusMs;

function withMuhurat(open: string, close: string): CalendarData {
  const year = data.years['2026'];
  if (!year) throw new Error('fixture needs 2026');
  return {
    ...data,
    years: {
      ...data.years,
      '2026': {
        ...year,
        specialSessions: [{ date: '2026-11-08', name: 'Muhurat', times: 'announced', open, close }],
      },
    },
  };
}

describe('createExchangeCalendar: sessions', () => {
  it('is in session from 09:15:00 inclusive to 15:30:00 exclusive on a trading day', () => {
    expect(calendar.isInSession(at('2026-11-23', '09:15', -1))).toBe(false);
    expect(calendar.isInSession(at('2026-11-23', '09:15'))).toBe(true);
    expect(calendar.isInSession(at('2026-11-23', '15:30', -1))).toBe(true);
    expect(calendar.isInSession(at('2026-11-23', '15:30'))).toBe(false);
  });

  it('is closed on weekends and listed holidays', () => {
    expect(calendar.isInSession(at('2026-11-21', '10:00'))).toBe(false); // Saturday
    expect(calendar.isInSession(at('2026-11-24', '10:00'))).toBe(false); // Guru Nanak Jayanti
    expect(calendar.isTradingDay('2026-11-24')).toBe(false);
    expect(calendar.holidayName('2026-11-24')).toBe('Prakash Gurpurb Sri Guru Nanak Dev');
    expect(calendar.isTradingDay('2026-11-25')).toBe(true);
  });

  it('counts a special-session day as a trading day but not in session while its times are pending', () => {
    expect(calendar.isTradingDay('2026-11-08')).toBe(true);
    expect(calendar.hasRegularSession('2026-11-08')).toBe(false);
    expect(calendar.sessionsOn('2026-11-08')).toEqual([]);
    expect(calendar.isInSession(at('2026-11-08', '18:30'))).toBe(false);
  });

  it('trades an announced special session on a Sunday and aligns its buckets to its open', () => {
    const muhurat = createExchangeCalendar(withMuhurat('18:00', '19:00'));
    expect(muhurat.isInSession(at('2026-11-08', '18:00'))).toBe(true);
    expect(muhurat.isInSession(at('2026-11-08', '19:00'))).toBe(false);
    expect(muhurat.isInSession(at('2026-11-08', '10:00'))).toBe(false);
    expect(muhurat.sessionOpen(at('2026-11-08', '18:20'))).toBe(at('2026-11-08', '18:00'));
    // no strategy entries and no square-off in a special session
    expect(muhurat.isInEntryWindow(at('2026-11-08', '18:30'))).toBe(false);
    expect(muhurat.squareOffTime(at('2026-11-08', '18:30'))).toBeNull();
  });

  it('aligns buckets to 09:15 IST of the IST date', () => {
    expect(calendar.sessionOpen(at('2026-11-23', '13:07'))).toBe(at('2026-11-23', '09:15'));
    expect(calendar.sessionOpen(at('2026-11-21', '13:07'))).toBe(at('2026-11-21', '09:15'));
    expect(calendar.tradingDate(at('2026-11-23', '00:10'))).toBe('2026-11-23');
  });

  it('uses a per-year session override', () => {
    const year = data.years['2026'];
    if (!year) throw new Error('fixture needs 2026');
    const shortened = createExchangeCalendar({
      ...data,
      years: { '2026': { ...year, regularSession: { open: '10:00', close: '14:30' } } },
    });
    expect(shortened.isInSession(at('2026-11-23', '09:30'))).toBe(false);
    expect(shortened.sessionOpen(at('2026-11-23', '11:00'))).toBe(at('2026-11-23', '10:00'));
    // the entry window and square-off never run past the close
    expect(shortened.isInEntryWindow(at('2026-11-23', '14:45'))).toBe(false);
    expect(shortened.squareOffTime(at('2026-11-23', '11:00'))).toBe(at('2026-11-23', '14:30'));
  });

  it('treats a year missing from the data as weekdays without holidays', () => {
    expect(calendar.hasYear(2027)).toBe(false);
    expect(calendar.isInSession(at('2027-01-26', '10:00'))).toBe(true);
    expect(calendar.isInSession(at('2027-01-30', '10:00'))).toBe(false); // Saturday
  });
});

describe('createExchangeCalendar: entry window and square-off', () => {
  it('accepts setup closes after 09:15 up to and including 15:00 IST', () => {
    expect(calendar.isInEntryWindow(at('2026-11-23', '09:15'))).toBe(false);
    expect(calendar.isInEntryWindow(at('2026-11-23', '09:16'))).toBe(true);
    expect(calendar.isInEntryWindow(at('2026-11-23', '15:00'))).toBe(true);
    expect(calendar.isInEntryWindow(at('2026-11-23', '15:00', 1))).toBe(false);
    expect(calendar.isInEntryWindow(at('2026-11-24', '10:00'))).toBe(false); // holiday
  });

  it('squares off at 15:15 IST by default and at a configured time', () => {
    expect(calendar.squareOffTime(at('2026-11-23', '10:00'))).toBe(at('2026-11-23', '15:15'));
    expect(calendar.squareOffTime(at('2026-11-21', '10:00'))).toBeNull();
    const early = createExchangeCalendar(data, { squareOff: '15:05', entryEnd: '14:30' });
    expect(early.squareOffTime(at('2026-11-23', '10:00'))).toBe(at('2026-11-23', '15:05'));
    expect(early.isInEntryWindow(at('2026-11-23', '14:45'))).toBe(false);
  });

  it('finds neighbouring trading days across weekends and holidays', () => {
    expect(calendar.previousTradingDay('2026-11-25')).toBe('2026-11-23'); // skips the 24th
    expect(calendar.nextTradingDay('2026-11-20')).toBe('2026-11-23'); // skips the weekend
    expect(calendar.nextTradingDay('2026-11-07')).toBe('2026-11-09'); // Muhurat Sunday is not a regular day
  });
});

describe('alwaysOpenCalendar', () => {
  it('is always in session and in the entry window, with no square-off', () => {
    for (const t of [at('2026-11-21', '02:00'), at('2026-11-24', '23:59'), at('2026-11-23', '15:45')]) {
      expect(alwaysOpenCalendar.isInSession(t)).toBe(true);
      expect(alwaysOpenCalendar.isInEntryWindow(t)).toBe(true);
      expect(alwaysOpenCalendar.squareOffTime(t)).toBeNull();
    }
  });

  it('still aligns buckets to 09:15 IST of the IST date', () => {
    expect(alwaysOpenCalendar.sessionOpen(at('2026-11-21', '22:07'))).toBe(at('2026-11-21', '09:15'));
    expect(alwaysOpenCalendar.sessionOpen(at('2026-11-22', '02:00'))).toBe(at('2026-11-22', '09:15'));
    expect(alwaysOpenCalendar.tradingDate(at('2026-11-22', '02:00'))).toBe('2026-11-22');
  });
});
