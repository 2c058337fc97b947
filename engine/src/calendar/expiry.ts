import { addDays, istDateTime, parseDate, weekdayOf } from './ist';
import { expiryWeekdayOn, lotSizeFor } from './contractSpecs';
import type { UnderlyingSpec } from './contractSpecs';
import type { MarketCalendar } from './marketCalendar';

/** Expiry dates and dated contract facts of one underlying, derived from the calendar and its specs. */
export interface ExpiryCalendar {
  readonly strikeStep: number;
  readonly tickSize: number;
  /** the nearest weekly expiry on or after the IST date `date` (`YYYY-MM-DD`) */
  weeklyExpiry(date: string): string;
  /** the next `count` weekly expiries on or after `date`, ascending */
  weeklyExpiries(date: string, count: number): string[];
  /** the nearest monthly expiry (last expiry weekday of a month, holiday-shifted) on or after `date` */
  monthlyExpiry(date: string): string;
  /** true when `date` is a monthly expiry */
  isMonthlyExpiry(date: string): boolean;
  /** the instant a contract expiring on `expiryDate` stops trading: that day's close (15:30 IST) */
  expiryInstant(expiryDate: string): number;
  /** lot size of a contract expiring on `expiryDate` (see {@link lotSizeFor}) */
  lotSize(expiryDate: string): number;
}

/** How many days the searches look before deciding the data is broken. */
const MAX_SEARCH_DAYS = 400;

/** Builds the expiry calendar of one underlying; holidays come from `calendar` (use the exchange calendar). */
export function createExpiryCalendar(
  calendar: Pick<MarketCalendar, 'hasRegularSession' | 'sessionsOn'>,
  spec: UnderlyingSpec,
): ExpiryCalendar {
  function shiftToTradingDay(date: string): string {
    // An expiry that falls on a holiday moves to the previous trading day (e.g. Tuesday holiday → Monday).
    let d = date;
    for (let i = 0; i < MAX_SEARCH_DAYS; i += 1) {
      if (calendar.hasRegularSession(d)) return d;
      d = addDays(d, -1);
    }
    throw new RangeError(`no trading day within ${MAX_SEARCH_DAYS} days before ${date}`);
  }

  function isNominalExpiry(date: string): boolean {
    return weekdayOf(date) === expiryWeekdayOn(spec, date);
  }

  // Every entry asks for the current week's expiries (a sweep's hundred accounts each plan their own): the answer
  // of a date never changes, so it is worked out once.
  const weekly = new Map<string, readonly string[]>();
  function weeklyExpiries(date: string, count: number): string[] {
    const key = `${date}|${count}`;
    let found = weekly.get(key);
    if (found === undefined) {
      found = searchWeeklyExpiries(date, count);
      weekly.set(key, found);
    }
    return [...found];
  }

  function searchWeeklyExpiries(date: string, count: number): string[] {
    const result: string[] = [];
    // Start a week back: a holiday shift can move the nominal expiry of a later day to on/after `date`.
    let d = addDays(date, -7);
    for (let i = 0; i < MAX_SEARCH_DAYS + 7 * count && result.length < count; i += 1) {
      if (isNominalExpiry(d)) {
        const actual = shiftToTradingDay(d);
        if (actual >= date && actual !== result[result.length - 1]) result.push(actual);
      }
      d = addDays(d, 1);
    }
    if (result.length < count) throw new RangeError(`could not find ${count} weekly expiries from ${date}`);
    return result;
  }

  function monthlyOf(year: number, month: number): string {
    const firstOfNext =
      month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
    let d = addDays(firstOfNext, -1);
    while (!isNominalExpiry(d)) d = addDays(d, -1);
    return shiftToTradingDay(d);
  }

  function monthlyExpiry(date: string): string {
    const { year, month } = parseDate(date);
    const thisMonth = monthlyOf(year, month);
    if (thisMonth >= date) return thisMonth;
    return month === 12 ? monthlyOf(year + 1, 1) : monthlyOf(year, month + 1);
  }

  return {
    strikeStep: spec.strikeStep,
    tickSize: spec.tickSize,
    weeklyExpiry: (date) => weeklyExpiries(date, 1)[0] as string,
    weeklyExpiries,
    monthlyExpiry,
    isMonthlyExpiry: (date) => monthlyExpiry(date) === date,
    expiryInstant(expiryDate) {
      const sessions = calendar.sessionsOn(expiryDate).filter((s) => s.kind === 'regular');
      return sessions[sessions.length - 1]?.close ?? istDateTime(expiryDate, '15:30');
    },
    lotSize: (expiryDate) => lotSizeFor(spec, expiryDate),
  };
}
