import type { CalendarData } from './calendarData';
import { formatHhMm, parseHhMm } from './ist';
import { DEFAULT_TRADING_WINDOW, type TradingWindowOptions } from './marketCalendar';

/**
 * The trading day as the product runs it, each time IST `HH:MM`. The exchange calendar's entry window and square-off,
 * the strategy's rules in words and every page that names a time read them from here, so no two places can
 * disagree about when the day starts and ends.
 */
export interface SessionFacts {
  /** the exchange's regular session opens (candles align to it) */
  readonly marketOpen: string;
  /** … and closes; prices at or after it do not count */
  readonly marketClose: string;
  /** a setup candle must close strictly after this time to signal */
  readonly entryStart: string;
  /** … and at or before this time */
  readonly entryEnd: string;
  /** open positions are closed at this time */
  readonly squareOff: string;
}

/**
 * The session facts of the calendar data (of `date`'s year when that year overrides the regular session) with the
 * product's trading window. The entry window and the square-off never run past the market's close.
 */
export function sessionFacts(
  data: CalendarData,
  window: TradingWindowOptions = {},
  date?: string,
): SessionFacts {
  const times =
    (date === undefined ? undefined : data.years[date.slice(0, 4)]?.regularSession) ?? data.regularSession;
  const chosen = { ...DEFAULT_TRADING_WINDOW, ...window };
  const close = parseHhMm(times.close);
  const clamp = (time: string): string => formatHhMm(Math.min(parseHhMm(time), close));
  return {
    marketOpen: times.open,
    marketClose: times.close,
    entryStart: chosen.entryStart,
    entryEnd: clamp(chosen.entryEnd),
    squareOff: clamp(chosen.squareOff),
  };
}
