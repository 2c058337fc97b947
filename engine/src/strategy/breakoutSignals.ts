import { Observable } from 'rxjs';
import type { OperatorFunction, SchedulerLike, Subscription } from 'rxjs';
import { DeadlineTimer } from '../candles/deadlineTimer';
import type { SessionCalendar, Tick } from '../core/types';
import type { StrategyParams } from './params';
import type { PipelineEvent } from './signal';
import { SignalPipeline } from './signalPipeline';

/** Options of {@link breakoutSignals}. */
export interface BreakoutSignalsOptions {
  readonly calendar: SessionCalendar;
  /** the engine's clock: live uses a real (or scaled) scheduler, backtests and tests a virtual one */
  readonly scheduler: SchedulerLike;
  /** parameters at start (defaults when absent) */
  readonly params?: StrategyParams;
  /** live parameter changes; each takes effect at the next candle close (the interval at the next bucket) */
  readonly params$?: Observable<StrategyParams>;
  /** emit closed candles as `candle` events (default true) */
  readonly emitCandles?: boolean;
  /** also emit forming candles after every accepted tick (default false) */
  readonly emitForming?: boolean;
}

/**
 * Ticks → candles → strategy events on the injected scheduler: the {@link SignalPipeline} plus one timer at the
 * next deadline, so a bucket closes at its end and an armed signal expires at its end even when no tick comes.
 * Events are emitted in time order; a candle close precedes the events it causes. When the source completes, the
 * forming candle closes and a signal still armed expires, then the output completes. An error of `params$`
 * errors the output.
 */
export function breakoutSignals(options: BreakoutSignalsOptions): OperatorFunction<Tick, PipelineEvent> {
  return (source$) =>
    new Observable<PipelineEvent>((subscriber) => {
      const pipeline = new SignalPipeline({
        calendar: options.calendar,
        ...(options.params ? { params: options.params } : {}),
        emitCandles: options.emitCandles !== false,
        emitForming: options.emitForming === true,
        onEvent: (event) => subscriber.next(event),
      });
      const timer = new DeadlineTimer(options.scheduler, (at) => {
        pipeline.advanceTo(at);
        timer.set(pipeline.nextDeadline);
      });
      let paramsSubscription: Subscription | undefined;
      if (options.params$) {
        paramsSubscription = options.params$.subscribe({
          next: (params) => pipeline.setParams(params),
          error: (err: unknown) => subscriber.error(err),
        });
      }
      const subscription = source$.subscribe({
        next(tick) {
          pipeline.push(tick);
          timer.set(pipeline.nextDeadline);
        },
        error(err: unknown) {
          timer.cancel();
          subscriber.error(err);
        },
        complete() {
          timer.cancel();
          pipeline.finish();
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        paramsSubscription?.unsubscribe();
        timer.cancel();
      };
    });
}
