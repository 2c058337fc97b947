import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STRATEGY_PARAMS } from '../strategy/params';
import { describeStrategy } from '../strategy/describeStrategy';
import { parseCalendarData, type CalendarData } from './calendarData';
import { createExchangeCalendar } from './exchangeCalendar';
import { istDateTime } from './ist';
import { sessionFacts } from './sessionFacts';

const shipped = parseCalendarData(
  JSON.parse(readFileSync(new URL('../../data/nse-calendar.json', import.meta.url), 'utf8')),
);

/** The shipped data with other regular-session times, to show every reader follows the data. */
function withSession(
  open: string,
  close: string,
  yearOverride?: { open: string; close: string },
): CalendarData {
  const year = shipped.years['2026'];
  if (!year) throw new Error('fixture needs 2026');
  return {
    ...shipped,
    regularSession: { open, close },
    years: {
      ...shipped.years,
      '2026': yearOverride === undefined ? year : { ...year, regularSession: yearOverride },
    },
  };
}

const MONDAY = '2026-11-23';
const at = (hhmm: string, plusMs = 0) => istDateTime(MONDAY, hhmm) + plusMs;

describe('sessionFacts', () => {
  it('gives the NSE session of the data file and the product window', () => {
    expect(sessionFacts(shipped)).toEqual({
      marketOpen: '09:15',
      marketClose: '15:30',
      entryStart: '09:15',
      entryEnd: '15:00',
      squareOff: '15:15',
    });
  });

  it("reads a year's own session times and never lets the window run past the close", () => {
    const data = withSession('09:15', '15:30', { open: '10:00', close: '14:45' });
    expect(sessionFacts(data, { squareOff: '15:20' }, '2026-03-02')).toEqual({
      marketOpen: '10:00',
      marketClose: '14:45',
      entryStart: '09:15',
      entryEnd: '14:45',
      squareOff: '14:45',
    });
    // Another year keeps the file-wide times.
    expect(sessionFacts(data, {}, '2025-03-03').marketClose).toBe('15:30');
  });
});

describe('the session facts come from one module', () => {
  it("the exchange calendar's session, entry window and square-off are the facts", () => {
    const data = withSession('09:30', '15:00');
    const window = { entryEnd: '14:40', squareOff: '14:50' };
    const facts = sessionFacts(data, window, MONDAY);
    const calendar = createExchangeCalendar(data, window);
    expect(calendar.isInSession(at(facts.marketOpen, -1))).toBe(false);
    expect(calendar.isInSession(at(facts.marketOpen))).toBe(true);
    expect(calendar.isInSession(at(facts.marketClose, -1))).toBe(true);
    expect(calendar.isInSession(at(facts.marketClose))).toBe(false);
    expect(calendar.isInEntryWindow(at(facts.entryStart))).toBe(false);
    expect(calendar.isInEntryWindow(at(facts.entryStart, 1))).toBe(true);
    expect(calendar.isInEntryWindow(at(facts.entryEnd))).toBe(true);
    expect(calendar.isInEntryWindow(at(facts.entryEnd, 1))).toBe(false);
    expect(calendar.squareOffTime(at('10:00'))).toBe(at(facts.squareOff));
    expect(calendar.sessionOpen(at('10:00'))).toBe(at('09:30'));
  });

  it('clamps the square-off of the calendar and of the facts alike', () => {
    const data = withSession('09:15', '15:00');
    const calendar = createExchangeCalendar(data, { squareOff: '15:20' });
    expect(sessionFacts(data, { squareOff: '15:20' }).squareOff).toBe('15:00');
    expect(calendar.squareOffTime(at('10:00'))).toBe(at('15:00'));
  });

  it("the strategy's rules in words name the facts, not times of their own", () => {
    const facts = {
      marketOpen: '09:30',
      marketClose: '15:10',
      entryStart: '09:45',
      entryEnd: '14:20',
      squareOff: '14:55',
    };
    const text = describeStrategy(DEFAULT_STRATEGY_PARAMS, { session: facts }).join('\n');
    expect(text).toContain('start at the 09:30 IST session open');
    expect(text).toContain('between 09:30 and 15:10 IST');
    expect(text).toContain('closes after 09:45 and at or before 14:20 IST');
    expect(text).toContain('closed at 14:55 IST');
    for (const time of ['09:15', '15:00', '15:15', '15:30']) expect(text).not.toContain(time);
  });
});
