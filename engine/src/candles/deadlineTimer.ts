import type { SchedulerLike, Subscription } from 'rxjs';

/**
 * One pending wake-up on an injected scheduler, re-armed only when the wanted instant changes (once per bucket,
 * not per tick). Used by the candle and strategy operators so a bucket closes at its end even when no tick follows.
 */
export class DeadlineTimer {
  private subscription: Subscription | undefined;
  private at = Number.NaN;

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly onFire: (at: number) => void,
  ) {}

  /** Wakes at `at` (epoch ms on the scheduler's clock); undefined cancels the wake-up. */
  set(at: number | undefined): void {
    if (at === this.at) return;
    this.cancel();
    if (at === undefined) return;
    this.at = at;
    this.subscription = this.scheduler.schedule(
      () => {
        this.subscription = undefined;
        this.at = Number.NaN;
        this.onFire(at);
      },
      Math.max(0, at - this.scheduler.now()),
    );
  }

  /** Cancels the pending wake-up, if any. */
  cancel(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.at = Number.NaN;
  }
}
