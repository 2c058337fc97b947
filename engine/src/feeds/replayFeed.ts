import type { SchedulerLike, Subscription } from 'rxjs';
import type { Tick } from '../core/types';
import type { FeedSource } from './feedSource';
import { createSyntheticFeed } from './syntheticFeed';
import type { SyntheticFeedOptions } from './syntheticFeed';

/** Options of {@link createReplayFeed}. */
export interface ReplayFeedOptions extends SyntheticFeedOptions {
  /** ticks in time order; read lazily, so a generator over a big file is fine */
  readonly ticks: Iterable<Tick>;
  /**
   * the clock to play on: a virtual clock (`createVirtualClock(firstTickTime)`) for backtests, or a scaled one
   * started at the first tick's time for live replay. Each tick is emitted when the clock reaches its timestamp.
   */
  readonly scheduler: SchedulerLike;
  /**
   * shift every tick by the same amount so the first plays at the scheduler's `now()` (default false): lets a
   * recorded day be replayed on a clock that shows today
   */
  readonly shiftToNow?: boolean;
  /** called once when the last tick has been played */
  readonly onEnd?: () => void;
}

/**
 * Plays recorded ticks on the injected scheduler at their own timestamps (ticks already in the past play at once,
 * in order). `simulated` is true: replayed prices are history, never a basis for live orders.
 */
export function createReplayFeed(options: ReplayFeedOptions): FeedSource {
  const { scheduler } = options;
  // Replays carry no option data, so quotes are Black–Scholes from the index like the simulated feed's.
  return createSyntheticFeed('replay', options, (outlet) => {
    let iterator: Iterator<Tick> | null = null;
    let shift: number | null = null;
    let running: Subscription | null = null;
    let ended = false;
    // The next tick to play: pulled from the iterator once and kept across stop()/start() so none is lost.
    let pending: Tick | null = null;

    function pull(): Tick | null {
      const next = iterator?.next();
      if (!next || next.done) return null;
      shift ??= options.shiftToNow ? scheduler.now() - next.value.time : 0;
      return shift === 0 ? next.value : { ...next.value, time: next.value.time + shift };
    }

    function scheduleNext(): void {
      pending ??= pull();
      const tick = pending;
      if (!tick) {
        running = null;
        ended = true;
        options.onEnd?.();
        return;
      }
      // A fresh top-level action per tick, not a rescheduled one: see the simulated feed.
      running = scheduler.schedule(
        () => {
          pending = null;
          outlet.emit(tick);
          if (running) scheduleNext();
        },
        Math.max(0, tick.time - scheduler.now()),
      );
    }

    return {
      start() {
        if (running) return;
        // Resuming after stop() continues with the next unplayed tick.
        iterator ??= options.ticks[Symbol.iterator]();
        if (ended) return;
        scheduleNext();
      },
      stop() {
        running?.unsubscribe();
        running = null;
      },
    };
  });
}
