import { asyncScheduler, Subscription } from 'rxjs';
import type { SchedulerAction, SchedulerLike } from 'rxjs';

/** Options of {@link createScaledScheduler}. */
export interface ScaledSchedulerOptions {
  /** virtual milliseconds per real millisecond (`SIM_SPEED`); 60 runs one virtual minute per real second */
  readonly speed: number;
  /** the virtual instant (epoch ms) the clock shows when it is created; defaults to the base clock's `now()` */
  readonly startAt?: number;
  /** the real clock and timer source; `asyncScheduler` in production, a `TestScheduler` in tests */
  readonly base?: SchedulerLike;
}

/** A scheduler whose clock runs `speed` times faster than its base; `now()` is virtual epoch ms. */
export interface ScaledScheduler extends SchedulerLike {
  readonly speed: number;
  /** converts a virtual duration to the real duration the base waits for it */
  toRealDelay(virtualMs: number): number;
}

/**
 * The action handed to scheduled work as `this`. RxJS operators reschedule through it (`this.schedule(state,
 * delay)`, e.g. `interval`), so its delays are virtual too and must be divided by the speed before reaching the
 * base action.
 */
class ScaledAction<T> extends Subscription implements SchedulerAction<T> {
  constructor(
    private readonly inner: SchedulerAction<T>,
    private readonly speed: number,
  ) {
    super(() => inner.unsubscribe());
  }

  schedule(state?: T, delay = 0): Subscription {
    this.inner.schedule(state, delay / this.speed);
    return this;
  }
}

/** Creates a scheduler whose `now()` runs `speed`× real time from `startAt` and whose delays are divided by `speed`. */
export function createScaledScheduler(options: ScaledSchedulerOptions): ScaledScheduler {
  const { speed } = options;
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new RangeError(`speed must be a positive finite number, got ${String(speed)}`);
  }
  const base = options.base ?? asyncScheduler;
  const baseStart = base.now();
  const startAt = options.startAt ?? baseStart;

  function schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay = 0,
    state?: T,
  ): Subscription {
    return base.schedule<T>(
      function (this: SchedulerAction<T>, innerState?: T) {
        // Wrap the action that is executing now: some bases (VirtualTimeScheduler) run a rescheduled chain on a
        // new action, so a wrapper cached from the first run would reschedule a dead one.
        work.call(new ScaledAction(this, speed), innerState);
      },
      Math.max(0, delay) / speed,
      state,
    );
  }

  return {
    speed,
    now: () => startAt + (base.now() - baseStart) * speed,
    schedule,
    toRealDelay: (virtualMs: number) => Math.max(0, virtualMs) / speed,
  };
}
