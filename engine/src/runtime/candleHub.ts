import { CandleBuilder } from '../candles/candleBuilder';
import type { Candle, IntervalMinutes, SessionCalendar, Tick } from '../core/types';

/** Options of {@link CandleHub}. */
export interface CandleHubOptions {
  readonly calendar: SessionCalendar;
  /** intervals in use at the start (every strategy's, plus the chart's) */
  readonly intervals: readonly IntervalMinutes[];
}

/**
 * One candle builder per interval in use, fed once per tick: however many strategies and chart panes read
 * 1-minute candles, a tick updates exactly one 1-minute builder. Closed candles come back from `push` and
 * `advanceTo` in interval order, each before the tick that closed it reaches anyone else.
 */
export class CandleHub {
  private readonly calendar: SessionCalendar;
  private readonly builders = new Map<IntervalMinutes, CandleBuilder>();
  /** the builders and their intervals in interval order, for the per-tick loops (no iterator per tick) */
  private ordered: CandleBuilder[] = [];
  private intervalList: readonly IntervalMinutes[] = [];

  constructor(options: CandleHubOptions) {
    this.calendar = options.calendar;
    this.setIntervals(options.intervals);
  }

  /** The intervals with a builder, ascending. */
  get intervals(): readonly IntervalMinutes[] {
    return this.intervalList;
  }

  /** Adds builders for new intervals and drops unused ones; a kept interval keeps its forming candle. */
  setIntervals(intervals: readonly IntervalMinutes[]): void {
    const wanted = new Set(intervals);
    for (const interval of [...this.builders.keys()])
      if (!wanted.has(interval)) this.builders.delete(interval);
    for (const interval of [...wanted].sort((a, b) => a - b)) {
      if (!this.builders.has(interval))
        this.builders.set(interval, new CandleBuilder({ interval, calendar: this.calendar }));
    }
    this.intervalList = [...this.builders.keys()];
    this.ordered = [...this.builders.values()];
  }

  /**
   * Whether the last `push` opened or closed a bucket, so `closesAt` may have moved: the runtime re-reads its
   * deadlines only then, not on every tick.
   */
  bucketsMoved = false;

  /** Feeds a tick to every builder once; returns the candles it closed and whether any builder took the tick. */
  push(tick: Tick, closed: Candle[]): boolean {
    let accepted = false;
    let moved = false;
    const builders = this.ordered;
    for (let i = 0; i < builders.length; i++) {
      const builder = builders[i] as CandleBuilder;
      const wasForming = builder.isForming;
      const done = builder.push(tick);
      if (done) {
        closed.push(done);
        moved = true;
      }
      if (builder.isForming !== wasForming) moved = true;
      if (builder.accepted) accepted = true;
    }
    this.bucketsMoved = moved;
    return accepted;
  }

  /** Lets time pass to `time` without a tick: the candles whose interval has ended. */
  advanceTo(time: number, closed: Candle[]): void {
    const builders = this.ordered;
    for (let i = 0; i < builders.length; i++) {
      const done = (builders[i] as CandleBuilder).closeUntil(time);
      if (done) closed.push(done);
    }
  }

  /** The forming candle of `interval`, if a bucket is open. */
  forming(interval: IntervalMinutes): Candle | undefined {
    return this.builders.get(interval)?.formingCandle();
  }

  /** The earliest end of a forming bucket, if any. */
  get closesAt(): number | undefined {
    let earliest: number | undefined;
    const builders = this.ordered;
    for (let i = 0; i < builders.length; i++) {
      const at = (builders[i] as CandleBuilder).closesAt;
      if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
    }
    return earliest;
  }

  /** End of data: closes every forming candle. */
  flush(closed: Candle[]): void {
    for (const builder of this.builders.values()) {
      const done = builder.flush();
      if (done) closed.push(done);
    }
  }
}
