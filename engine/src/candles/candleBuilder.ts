import type { Candle, IntervalMinutes, SessionCalendar, Tick } from '../core/types';

const MINUTE_MS = 60_000;

/** Options of a {@link CandleBuilder}. */
export interface CandleBuilderOptions {
  readonly interval: IntervalMinutes;
  readonly calendar: SessionCalendar;
}

/** The bucket `[start, start + interval)` that contains `time`, on the grid that starts at `sessionOpen`. */
export function bucketStart(time: number, sessionOpen: number, intervalMs: number): number {
  return sessionOpen + Math.floor((time - sessionOpen) / intervalMs) * intervalMs;
}

/**
 * Builds IST-aligned, session-gated candles from ticks, synchronously. It holds one forming bucket in mutable
 * fields, so accepting a tick allocates nothing; a candle object is made only when a bucket closes (or when a
 * forming snapshot is asked for). The runtime's `CandleHub` holds one per interval in use and drives it from ticks
 * and from its deadline timer, live and in backtests alike.
 *
 * Rules (ARCHITECTURE.md "Candles"):
 * - buckets start at `calendar.sessionOpen(t)` and step by the interval; a candle covers `[start, start + interval)`,
 *   so a tick exactly on a boundary opens the next candle;
 * - only ticks with `calendar.isInSession(t)` form candles;
 * - a tick older than the last accepted tick is dropped, and so is a tick whose bucket was already closed (a late
 *   tick arriving after its bucket's timer fired);
 * - no tick, no candle; `time` is the bucket start; volume sums the accepted ticks' volumes.
 *
 * A bucket closes when time reaches its end: `closeUntil(t)` with `t ≥ end`, or any tick (even one that is then
 * dropped for being outside the session) whose time is `≥ end`, since that tick proves the end has passed.
 */
export class CandleBuilder {
  private readonly calendar: SessionCalendar;
  private interval: IntervalMinutes;
  private intervalMs: number;
  private pendingInterval: IntervalMinutes | undefined;

  private forming = false;
  private start = 0;
  private end = 0;
  private open = 0;
  private high = 0;
  private low = 0;
  private close = 0;
  private volume = 0;
  /** whole forming bucket lies inside the session, so per-tick session checks can be skipped */
  private bucketInSession = false;

  /** ticks in [outOfSessionFrom, outOfSessionUntil) are known to be outside the session */
  private outOfSessionFrom = Infinity;
  private outOfSessionUntil = -Infinity;

  private lastTickTime = -Infinity;
  /** end of the last closed bucket: ticks in earlier buckets are late */
  private closedUntil = -Infinity;
  private lastAccepted = false;

  constructor(options: CandleBuilderOptions) {
    this.calendar = options.calendar;
    this.interval = options.interval;
    this.intervalMs = options.interval * MINUTE_MS;
  }

  /** Whether the tick given to the last `push` was accepted into a candle. */
  get accepted(): boolean {
    return this.lastAccepted;
  }

  /** The interval of the forming bucket (or of the next one when nothing is forming). */
  get currentInterval(): IntervalMinutes {
    return this.forming ? this.interval : (this.pendingInterval ?? this.interval);
  }

  /** Whether a bucket is forming. */
  get isForming(): boolean {
    return this.forming;
  }

  /** Epoch ms at which the forming bucket closes, or undefined when no bucket is forming. */
  get closesAt(): number | undefined {
    return this.forming ? this.end : undefined;
  }

  /** Time of the last accepted tick (-Infinity before the first). */
  get lastTime(): number {
    return this.lastTickTime;
  }

  /**
   * Changes the interval from the next bucket on; the forming bucket keeps its interval. Ticks that fall in a
   * bucket of the new grid that starts before the last closed candle ended are dropped, so candles never overlap.
   */
  setInterval(interval: IntervalMinutes): void {
    if (this.forming) this.pendingInterval = interval === this.interval ? undefined : interval;
    else this.applyInterval(interval);
  }

  /**
   * Adds a tick. Returns the candle this tick closed (at most one, since only one bucket forms at a time), or
   * undefined. Read `accepted` afterwards to know whether the tick itself went into a candle.
   */
  push(tick: Tick): Candle | undefined {
    const t = tick.time;
    this.lastAccepted = false;
    // `!(a >= b)` rather than `a < b` so a NaN time is dropped too.
    if (!(t >= this.lastTickTime)) return undefined;
    let closed: Candle | undefined;
    if (this.forming) {
      if (t < this.end) {
        if (this.bucketInSession || this.calendar.isInSession(t)) {
          const price = tick.price;
          if (price > this.high) this.high = price;
          else if (price < this.low) this.low = price;
          this.close = price;
          this.volume += tick.volume;
          this.lastTickTime = t;
          this.lastAccepted = true;
        }
        return undefined;
      }
      closed = this.closeForming();
    }
    if (t >= this.closedUntil && this.isInSession(t)) this.openBucket(tick);
    return closed;
  }

  /** Closes the forming bucket if it ends at or before `time`; returns the closed candle, if any. */
  closeUntil(time: number): Candle | undefined {
    return this.forming && this.end <= time ? this.closeForming() : undefined;
  }

  /** Closes the forming bucket whatever the time (end of data); returns it, if any. */
  flush(): Candle | undefined {
    return this.forming ? this.closeForming() : undefined;
  }

  /** A snapshot of the forming candle (`closed: false`), or undefined when nothing is forming. */
  formingCandle(): Candle | undefined {
    return this.forming ? this.snapshot(false) : undefined;
  }

  private openBucket(tick: Tick): void {
    if (this.pendingInterval !== undefined) this.applyInterval(this.pendingInterval);
    const t = tick.time;
    const start = bucketStart(t, this.calendar.sessionOpen(t), this.intervalMs);
    if (start < this.closedUntil) return;
    const end = start + this.intervalMs;
    this.forming = true;
    this.start = start;
    this.end = end;
    this.open = this.high = this.low = this.close = tick.price;
    this.volume = tick.volume;
    // Later ticks of this bucket are at or after t, which is in session. A session has no gap shorter than a
    // bucket, so if the bucket's last instant is in session too, [t, end) is wholly in session and the calendar
    // stays off the per-tick path.
    this.bucketInSession = this.calendar.isInSession(end - 1);
    this.lastTickTime = t;
    this.lastAccepted = true;
  }

  /**
   * `calendar.isInSession(t)` for a tick outside the forming bucket, remembering out-of-session stretches: when
   * `t` and the last instant of its minute are both outside, so is everything between (no session is shorter
   * than a minute), so a stream of pre-open ticks costs two calendar calls a minute, not one per tick.
   */
  private isInSession(t: number): boolean {
    if (t < this.outOfSessionUntil && t >= this.outOfSessionFrom) return false;
    if (this.calendar.isInSession(t)) return true;
    const minuteEnd = (Math.floor(t / MINUTE_MS) + 1) * MINUTE_MS;
    if (!this.calendar.isInSession(minuteEnd - 1)) {
      this.outOfSessionFrom = t;
      this.outOfSessionUntil = minuteEnd;
    }
    return false;
  }

  private closeForming(): Candle {
    const candle = this.snapshot(true);
    this.forming = false;
    this.closedUntil = this.end;
    if (this.pendingInterval !== undefined) this.applyInterval(this.pendingInterval);
    return candle;
  }

  private applyInterval(interval: IntervalMinutes): void {
    this.interval = interval;
    this.intervalMs = interval * MINUTE_MS;
    this.pendingInterval = undefined;
  }

  private snapshot(closed: boolean): Candle {
    return Object.freeze({
      interval: this.interval,
      time: this.start,
      open: this.open,
      high: this.high,
      low: this.low,
      close: this.close,
      volume: this.volume,
      closed,
    });
  }
}
