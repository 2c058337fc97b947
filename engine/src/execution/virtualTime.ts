import { VirtualTimeScheduler } from 'rxjs';

/** Lets every queued promise continuation run (a macrotask turn; no time passes on any clock). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Virtual time for async engine code (router, paper broker, limiter) in tests and backtests. RxJS's
 * `VirtualTimeScheduler.flush()` runs every action at once and so starves promise continuations in between;
 * `advance` runs scheduled actions one instant at a time and settles promises after each, so `await`-based
 * code observes time exactly as it would live.
 */
export class VirtualTime {
  readonly scheduler = new VirtualTimeScheduler();

  constructor(startAt = 0) {
    this.scheduler.frame = startAt;
  }

  /** the current virtual instant, epoch ms */
  now(): number {
    return this.scheduler.now();
  }

  /** Advances the clock by `ms`, running every action due on the way in time order. */
  async advance(ms: number): Promise<void> {
    const target = this.scheduler.frame + ms;
    await settle();
    for (;;) {
      const next = this.scheduler.actions[0];
      if (next === undefined || next.delay > target) break;
      this.scheduler.maxFrames = next.delay;
      this.scheduler.flush();
      await settle();
    }
    this.scheduler.maxFrames = Number.POSITIVE_INFINITY;
    this.scheduler.frame = target;
    await settle();
  }

  /** Advances in `stepMs` steps until `done()` holds, failing after `limitMs` of virtual time. */
  async until(done: () => boolean, limitMs = 600_000, stepMs = 10): Promise<void> {
    const deadline = this.scheduler.frame + limitMs;
    await settle();
    while (!done()) {
      if (this.scheduler.frame >= deadline) throw new Error(`condition not met within ${limitMs} virtual ms`);
      await this.advance(stepMs);
    }
  }
}
