/**
 * Domain types shared by every part of the engine. Wire data becomes these types once, at the edge
 * (feeds, broker adapters); everything inside the engine speaks only these.
 *
 * Times are UTC instants as epoch milliseconds. Prices are index points or rupees per unit as plain numbers;
 * money that is stored or billed is integer paise and is converted at the server's edge.
 */

/** A candle interval in minutes. */
export type IntervalMinutes = 1 | 3 | 5 | 15;

/** The intervals the product supports, in order. */
export const INTERVALS: readonly IntervalMinutes[] = [1, 3, 5, 15];

/** One trade print or index value of the underlying. */
export interface Tick {
  /** epoch ms (UTC) */
  readonly time: number;
  readonly price: number;
  /** traded quantity carried by this tick; 0 when the source has none (an index has no volume) */
  readonly volume: number;
}

/** An OHLCV bar covering [time, time + interval). */
export interface Candle {
  readonly interval: IntervalMinutes;
  /** start of the bucket, epoch ms (UTC) */
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** sum of tick volumes, 0 when ticks carry none */
  readonly volume: number;
  /** false while the bucket is still forming, true once its interval has ended */
  readonly closed: boolean;
}

/** Bid/ask/last of one tradable instrument (an option contract) at an instant. */
export interface Quote {
  readonly symbol: string;
  readonly time: number;
  readonly bid: number;
  readonly ask: number;
  readonly ltp: number;
}

export type OptionType = 'CE' | 'PE';
export type SignalType = 'CALL' | 'PUT';

/**
 * Which instants are tradable. Candles use it to drop ticks outside the session and to align buckets to the
 * session open; the strategy uses the entry window. Implementations: the IST exchange calendar (holiday data,
 * special sessions) and an "always open" calendar for demos (`SIM_SESSION=always`).
 */
export interface SessionCalendar {
  /** true when `time` is inside a trading session (09:15:00 ≤ t < 15:30:00 IST on a trading day, or a special session) */
  isInSession(time: number): boolean;
  /** the session open (epoch ms) that buckets of the day containing `time` align to (09:15 IST of that IST date) */
  sessionOpen(time: number): number;
  /** the IST calendar date of `time` as `YYYY-MM-DD`; a setup never spans two of these */
  tradingDate(time: number): string;
  /** true when a setup candle closing at `time` may produce a signal (after 09:15, at or before 15:00 IST, trading day) */
  isInEntryWindow(time: number): boolean;
}
