import type { CalendarData, CalendarYear } from './calendarData';
import { addDays, IST_OFFSET_MS, istDate, istDateTime, weekdayOf } from './ist';
import type { MarketCalendar, SessionWindow, TradingWindowOptions } from './marketCalendar';
import { sessionFacts } from './sessionFacts';

/** An exchange calendar built from holiday data. */
export interface ExchangeCalendar extends MarketCalendar {
  /** true when the data file lists the year; a missing year is treated as "every weekday trades" */
  hasYear(year: number): boolean;
  /** the closest date before `date` that has a regular session */
  previousTradingDay(date: string): string;
  /** the closest date after `date` that has a regular session */
  nextTradingDay(date: string): string;
  /** holiday name for a date, if the data names one */
  holidayName(date: string): string | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** How far the trading-day searches look before deciding the data is broken (no session for a whole year). */
const MAX_SEARCH_DAYS = 366;

/** Builds an IST exchange calendar (`SIM_SESSION=market`) from validated calendar data. */
export function createExchangeCalendar(
  data: CalendarData,
  options: TradingWindowOptions = {},
): ExchangeCalendar {
  const holidays = new Map<string, string>();
  for (const year of Object.values(data.years)) {
    for (const h of year.holidays) holidays.set(h.date, h.name ?? 'holiday');
  }

  function yearOf(date: string): CalendarYear | undefined {
    return data.years[date.slice(0, 4)];
  }

  function hasRegularSession(date: string): boolean {
    const weekday = weekdayOf(date);
    return weekday !== 0 && weekday !== 6 && !holidays.has(date);
  }

  function specialsOn(date: string): CalendarYear['specialSessions'] {
    return yearOf(date)?.specialSessions.filter((s) => s.date === date) ?? [];
  }

  function sessionsOn(date: string): readonly SessionWindow[] {
    const sessions: SessionWindow[] = [];
    if (hasRegularSession(date)) {
      const facts = sessionFacts(data, options, date);
      sessions.push({
        open: istDateTime(date, facts.marketOpen),
        close: istDateTime(date, facts.marketClose),
        kind: 'regular',
      });
    }
    for (const s of specialsOn(date)) {
      // A special session whose times are still pending cannot be traded: we do not guess its hours.
      if (s.times === 'announced') {
        sessions.push({
          open: istDateTime(date, s.open),
          close: istDateTime(date, s.close),
          kind: 'special',
        });
      }
    }
    return sessions.sort((a, b) => a.open - b.open);
  }

  function step(date: string, direction: 1 | -1): string {
    let d = date;
    for (let i = 0; i < MAX_SEARCH_DAYS; i += 1) {
      d = addDays(d, direction);
      if (hasRegularSession(d)) return d;
    }
    throw new RangeError(`no trading day within ${MAX_SEARCH_DAYS} days of ${date}`);
  }

  interface DayInfo {
    readonly sessions: readonly SessionWindow[];
    readonly open: number;
    /** entry window (exclusive start, inclusive end) and square-off; null on a day without a regular session */
    readonly entry: { readonly start: number; readonly end: number; readonly squareOff: number } | null;
  }

  function computeDay(date: string): DayInfo {
    const sessions = sessionsOn(date);
    // One source for the day's times (sessionFacts.ts): the pages and the strategy's rules read the same.
    const facts = sessionFacts(data, options, date);
    // Candles align to the day's first session; a closed day still gets the regular open so the grid is stable.
    const open = sessions[0]?.open ?? istDateTime(date, facts.marketOpen);
    // Entries are a regular-session rule: special sessions (Muhurat) are too short and thin to trade the strategy.
    const entry = hasRegularSession(date)
      ? {
          start: istDateTime(date, facts.entryStart),
          end: istDateTime(date, facts.entryEnd),
          squareOff: istDateTime(date, facts.squareOff),
        }
      : null;
    return { sessions, open, entry };
  }

  // The session questions are asked for every tick, nearly always about the same day: remember the last one.
  let cachedDay = Number.NaN;
  let cachedInfo: DayInfo | undefined;
  function dayOf(time: number): DayInfo {
    const day = Math.floor((time + IST_OFFSET_MS) / DAY_MS);
    if (day !== cachedDay || !cachedInfo) {
      cachedInfo = computeDay(istDate(time));
      cachedDay = day;
    }
    return cachedInfo;
  }
  let datedDay = Number.NaN;
  let dayDate = '';

  return {
    isInSession(time) {
      return dayOf(time).sessions.some((s) => s.open <= time && time < s.close);
    },
    sessionOpen: (time) => dayOf(time).open,
    tradingDate(time) {
      // Every strategy asks for each candle's date (a sweep runs a hundred): one Date per IST day, not per call.
      const day = Math.floor((time + IST_OFFSET_MS) / DAY_MS);
      if (day !== datedDay) {
        datedDay = day;
        dayDate = istDate(time);
      }
      return dayDate;
    },
    isInEntryWindow(time) {
      const entry = dayOf(time).entry;
      return entry !== null && time > entry.start && time <= entry.end;
    },
    isTradingDay(date) {
      return hasRegularSession(date) || specialsOn(date).length > 0;
    },
    hasRegularSession,
    sessionsOn,
    squareOffTime: (time) => dayOf(time).entry?.squareOff ?? null,
    hasYear: (year) => data.years[String(year)] !== undefined,
    previousTradingDay: (date) => step(date, -1),
    nextTradingDay: (date) => step(date, 1),
    holidayName: (date) => holidays.get(date),
  };
}
