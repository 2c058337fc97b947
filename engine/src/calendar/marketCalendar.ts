import type { SessionCalendar } from '../core/types';

/** One trading session on one date, as epoch ms: open ≤ t < close. */
export interface SessionWindow {
  readonly open: number;
  readonly close: number;
  /** `regular` for the normal market, `special` for sessions such as Muhurat trading */
  readonly kind: 'regular' | 'special';
}

/** The product's daily trading window, in IST `HH:MM`. */
export interface TradingWindowOptions {
  /** a setup candle must close strictly after this time (default 09:15) */
  readonly entryStart?: string;
  /** … and at or before this time (default 15:00) */
  readonly entryEnd?: string;
  /** open positions are squared off at this time (default 15:15) */
  readonly squareOff?: string;
}

export const DEFAULT_TRADING_WINDOW = {
  entryStart: '09:15',
  entryEnd: '15:00',
  squareOff: '15:15',
} as const satisfies Required<TradingWindowOptions>;

/**
 * A `SessionCalendar` with the extra questions the engine's other parts ask: is a date a trading day, which
 * sessions does it have, and when must positions be squared off.
 */
export interface MarketCalendar extends SessionCalendar {
  /** true for a weekday that is not a holiday, or a day with a special session (`date` is IST `YYYY-MM-DD`) */
  isTradingDay(date: string): boolean;
  /** true when the date has the normal market session (weekday, not a holiday); expiries fall only on these */
  hasRegularSession(date: string): boolean;
  /** the sessions of an IST date in time order; empty on a closed day */
  sessionsOn(date: string): readonly SessionWindow[];
  /** epoch ms at which open positions of the IST date of `time` must be closed, or null when none is imposed */
  squareOffTime(time: number): number | null;
}
