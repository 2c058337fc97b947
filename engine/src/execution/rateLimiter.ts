import type { SchedulerLike, Subscription } from 'rxjs';
import type { BrokerRateLimits } from './broker';

/** At most `limit` grants in any `windowMs`-long interval. */
export interface RateWindow {
  readonly limit: number;
  readonly windowMs: number;
}

/** SEBI's per-client threshold for unregistered algos (DOMAIN.md §2): the cap no configuration may exceed. */
export const SEBI_MAX_ORDERS_PER_SECOND = 10;

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The windows for one account: SEBI's ≤ 10/s (or a lower configured cap; a higher one is clamped to 10) combined
 * with the broker's own per-second, per-minute and per-day limits. The daily limit is applied as a sliding
 * 24 h window, which is never looser than the broker's calendar day.
 */
export function accountRateWindows(
  brokerLimits: BrokerRateLimits,
  maxPerSecond = SEBI_MAX_ORDERS_PER_SECOND,
): RateWindow[] {
  const perSecond = Math.min(SEBI_MAX_ORDERS_PER_SECOND, maxPerSecond, brokerLimits.perSecond);
  if (!(perSecond >= 1)) throw new RangeError(`orders per second must be at least 1, got ${perSecond}`);
  const windows: RateWindow[] = [{ limit: Math.floor(perSecond), windowMs: SECOND_MS }];
  if (brokerLimits.perMinute !== undefined)
    windows.push({ limit: brokerLimits.perMinute, windowMs: MINUTE_MS });
  if (brokerLimits.perDay !== undefined) windows.push({ limit: brokerLimits.perDay, windowMs: DAY_MS });
  return windows;
}

/** Raised to waiters when a limiter is disposed. */
export class LimiterDisposedError extends Error {
  constructor() {
    super('rate limiter disposed');
    this.name = 'LimiterDisposedError';
  }
}

/**
 * A sliding-window-log limiter on an injected scheduler. Requests queue in FIFO order and are granted as soon as
 * every window has room — nothing is dropped. A sliding log (not a token bucket) because the rule is "never more
 * than N in *any* 1 s window": a bucket refilled per second can grant 2N across a refill boundary.
 */
export class RateLimiter {
  private readonly grants: number[] = [];
  private readonly queue: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private timer: Subscription | undefined;
  private readonly longest: number;

  constructor(
    private readonly windows: readonly RateWindow[],
    private readonly scheduler: SchedulerLike,
  ) {
    if (windows.length === 0) throw new RangeError('a rate limiter needs at least one window');
    for (const w of windows) {
      if (!(w.limit >= 1) || !(w.windowMs > 0)) throw new RangeError(`invalid window ${JSON.stringify(w)}`);
    }
    this.longest = Math.max(...windows.map((w) => w.windowMs));
  }

  /** Resolves when the caller may send one request; queues (FIFO) while the windows are full. */
  acquire(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.drain();
    });
  }

  /** Grants one request now if every window has room, without queueing. */
  tryAcquire(): boolean {
    if (this.queue.length > 0 || this.waitMs(this.scheduler.now()) > 0) return false;
    this.grants.push(this.scheduler.now());
    return true;
  }

  /** requests waiting for a slot */
  get pending(): number {
    return this.queue.length;
  }

  /** Cancels the pending timer and fails every waiter. */
  dispose(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
    for (const waiter of this.queue.splice(0)) waiter.reject(new LimiterDisposedError());
  }

  /** How long from `now` until every window has room for one more grant. */
  private waitMs(now: number): number {
    // Forget grants older than the longest window.
    let stale = 0;
    while (stale < this.grants.length && (this.grants[stale] as number) <= now - this.longest) stale += 1;
    if (stale > 0) this.grants.splice(0, stale);
    let wait = 0;
    for (const { limit, windowMs } of this.windows) {
      // Grants inside (now - windowMs, now]; the log is sorted, so they are a suffix.
      let first = this.grants.length;
      while (first > 0 && (this.grants[first - 1] as number) > now - windowMs) first -= 1;
      const inWindow = this.grants.length - first;
      if (inWindow >= limit) {
        // Room appears when the grant that must leave the window does: the (inWindow - limit)th one in it.
        const leaving = this.grants[first + inWindow - limit] as number;
        wait = Math.max(wait, leaving + windowMs - now);
      }
    }
    return wait;
  }

  private drain(): void {
    const now = this.scheduler.now();
    while (this.queue.length > 0) {
      const wait = this.waitMs(now);
      if (wait > 0) {
        this.arm(wait);
        return;
      }
      this.grants.push(now);
      this.queue.shift()?.resolve();
    }
  }

  private arm(delay: number): void {
    if (this.timer !== undefined && !this.timer.closed) return;
    this.timer = this.scheduler.schedule(() => {
      this.timer = undefined;
      this.drain();
    }, delay);
  }
}
