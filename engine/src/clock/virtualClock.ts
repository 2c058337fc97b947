import { VirtualTimeScheduler } from 'rxjs';
import type { SchedulerAction, Subscription } from 'rxjs';
import { createScaledScheduler } from './scaledScheduler';
import type { ScaledScheduler } from './scaledScheduler';

/** A virtual clock for backtests: a scheduler whose `now()` is epoch ms and which runs only when flushed. */
export interface VirtualClock {
  readonly scheduler: ScaledScheduler;
  /** runs every scheduled action in time order, advancing the clock as it goes */
  flush(): void;
}

/** Creates a virtual clock starting at `startAt` (epoch ms); time advances only through `flush()`. */
export function createVirtualClock(startAt: number): VirtualClock {
  const base = new VirtualTimeScheduler();
  return { scheduler: createScaledScheduler({ speed: 1, startAt, base }), flush: () => base.flush() };
}

/** A virtual clock that a backtest steps tick by tick, so async work (fills) settles between two ticks. */
export interface SteppingClock {
  readonly scheduler: ScaledScheduler;
  /** runs every action due at or before `time` in time order, then shows `time` */
  advanceTo(time: number): void;
  /** when the earliest scheduled action is due (epoch ms), if any */
  nextDue(): number | undefined;
}

/** Options of {@link createSteppingClock}. */
export interface SteppingClockOptions {
  /**
   * told the instant (epoch ms) of every action scheduled through the clock's `schedule` (not of reschedules from
   * inside a running action): lets whoever steps the clock wake earlier than planned (the live replay's pacer)
   */
  readonly onSchedule?: (due: number) => void;
}

/** Creates a stepping virtual clock starting at `startAt` (epoch ms). */
export function createSteppingClock(startAt: number, options: SteppingClockOptions = {}): SteppingClock {
  const base = new VirtualTimeScheduler(undefined, Number.POSITIVE_INFINITY);
  const scaled = createScaledScheduler({ speed: 1, startAt, base });
  const { onSchedule } = options;
  const scheduler: ScaledScheduler =
    onSchedule === undefined
      ? scaled
      : {
          ...scaled,
          schedule<T>(
            work: (this: SchedulerAction<T>, state?: T) => void,
            delay = 0,
            state?: T,
          ): Subscription {
            const subscription = scaled.schedule(work, delay, state);
            onSchedule(scaled.now() + Math.max(0, delay));
            return subscription;
          },
        };
  return {
    scheduler,
    advanceTo(time) {
      const frame = time - startAt;
      if (frame < base.frame) return;
      // Called on every tick of a backtest: nothing due, nothing to flush.
      const next = base.actions[0];
      if (next !== undefined && next.delay <= frame) {
        base.maxFrames = frame;
        base.flush();
      }
      base.frame = frame;
    },
    nextDue() {
      const next = base.actions[0];
      return next === undefined ? undefined : startAt + next.delay;
    },
  };
}
