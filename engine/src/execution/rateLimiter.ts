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

/** A waiter for a slot. */
interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * A sliding-window-log limiter on an injected scheduler. Requests queue in FIFO order and are granted as soon as
 * every window has room — nothing is dropped. A sliding log (not a token bucket) because the rule is "never more
 * than N in *any* 1 s window": a bucket refilled per second can grant 2N across a refill boundary.
 *
 * Checks are O(1) per window: a window never holds more than its limit (a grant is only made when every window
 * has room), so it is full exactly when the `limit`-th most recent grant is still inside it, and the log need
 * only keep the last `max(limit)` grants. The queue is consumed from a head index, never `shift`ed.
 */
export class RateLimiter {
  /** grant times, ascending; entries before `oldest` are forgotten */
  private grants: number[] = [];
  private oldest = 0;
  private queue: Waiter[] = [];
  private head = 0;
  private timer: Subscription | undefined;
  private readonly longest: number;
  private readonly keep: number;

  constructor(
    private readonly windows: readonly RateWindow[],
    private readonly scheduler: SchedulerLike,
  ) {
    if (windows.length === 0) throw new RangeError('a rate limiter needs at least one window');
    for (const w of windows) {
      if (!(w.limit >= 1) || !(w.windowMs > 0)) throw new RangeError(`invalid window ${JSON.stringify(w)}`);
    }
    this.longest = Math.max(...windows.map((w) => w.windowMs));
    this.keep = Math.max(...windows.map((w) => Math.ceil(w.limit)));
  }

  /** Resolves when the caller may send one request; queues (FIFO) while the windows are full. */
  acquire(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.drain();
    });
  }

  /** Grants one request now if every window has room and nobody is queued, without queueing. */
  tryAcquire(): boolean {
    const now = this.scheduler.now();
    if (this.pending > 0 || this.waitMs(now) > 0) return false;
    this.grant(now);
    return true;
  }

  /** requests waiting for a slot */
  get pending(): number {
    return this.queue.length - this.head;
  }

  /** Cancels the pending timer and fails every waiter. */
  dispose(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
    const waiters = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    for (const waiter of waiters) waiter.reject(new LimiterDisposedError());
  }

  /** How long from `now` until every window has room for one more grant. */
  private waitMs(now: number): number {
    const { grants } = this;
    // Forget grants older than the longest window (they constrain nothing).
    while (this.oldest < grants.length && (grants[this.oldest] as number) <= now - this.longest)
      this.oldest += 1;
    const count = grants.length - this.oldest;
    let wait = 0;
    for (const { limit, windowMs } of this.windows) {
      const n = Math.ceil(limit);
      if (count < n) continue;
      // Full iff the n-th most recent grant is still inside (now - windowMs, now]; room appears when it leaves.
      const leaving = grants[grants.length - n] as number;
      if (leaving > now - windowMs) wait = Math.max(wait, leaving + windowMs - now);
    }
    return wait;
  }

  private grant(now: number): void {
    this.grants.push(now);
    // Only the last `keep` grants can decide a window; drop the rest in amortised O(1).
    const count = this.grants.length - this.oldest;
    if (count > this.keep) this.oldest += count - this.keep;
    if (this.oldest >= 64 && this.oldest * 2 >= this.grants.length) {
      this.grants = this.grants.slice(this.oldest);
      this.oldest = 0;
    }
  }

  private drain(): void {
    const now = this.scheduler.now();
    while (this.head < this.queue.length) {
      const wait = this.waitMs(now);
      if (wait > 0) {
        this.arm(wait);
        return;
      }
      this.grant(now);
      const waiter = this.queue[this.head] as Waiter;
      this.head += 1;
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      } else if (this.head >= 64 && this.head * 2 >= this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      waiter.resolve();
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
