import { Observable } from 'rxjs';
import type { OperatorFunction, SchedulerLike } from 'rxjs';
import type { Candle, IntervalMinutes, SessionCalendar, Tick } from '../core/types';
import { CandleBuilder } from './candleBuilder';
import { DeadlineTimer } from './deadlineTimer';

/** Options of {@link toCandles}. */
export interface ToCandlesOptions {
  readonly interval: IntervalMinutes;
  readonly calendar: SessionCalendar;
  /** the engine's clock: live uses a real (or scaled) scheduler, backtests and tests a virtual one */
  readonly scheduler: SchedulerLike;
  /** also emit a `closed: false` snapshot after every accepted tick (default false) */
  readonly emitForming?: boolean;
}

/**
 * Turns ticks into candles: exactly one `closed: true` candle per bucket that had ticks, emitted when the bucket
 * ends on the injected scheduler (a timer, so it closes even when no further tick arrives) or earlier if a tick
 * at or after the end arrives first. With `emitForming`, a `closed: false` update follows every accepted tick.
 * When the source completes, the forming candle is closed at once and emitted before completion (the data has
 * ended, so nothing can change it); pending timers are cancelled on completion, error and unsubscribe.
 */
export function toCandles(options: ToCandlesOptions): OperatorFunction<Tick, Candle> {
  return (source$) =>
    new Observable<Candle>((subscriber) => {
      const builder = new CandleBuilder(options);
      const emitForming = options.emitForming === true;
      const timer = new DeadlineTimer(options.scheduler, (at) => {
        const closed = builder.closeUntil(at);
        if (closed) subscriber.next(closed);
      });
      const subscription = source$.subscribe({
        next(tick) {
          const closed = builder.push(tick);
          if (closed) subscriber.next(closed);
          if (emitForming && builder.accepted) {
            const forming = builder.formingCandle();
            if (forming) subscriber.next(forming);
          }
          timer.set(builder.closesAt);
        },
        error(err: unknown) {
          timer.cancel();
          subscriber.error(err);
        },
        complete() {
          timer.cancel();
          const closed = builder.flush();
          if (closed) subscriber.next(closed);
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        timer.cancel();
      };
    });
}
