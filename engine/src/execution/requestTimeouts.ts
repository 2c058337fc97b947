import type { SchedulerLike, Subscription } from 'rxjs';

/** Rejection of a call that got no reply within the timeout (its outcome is unknown, not failed). */
export class RequestTimeout extends Error {
  constructor(ms: number) {
    super(`no reply within ${ms} ms`);
    this.name = 'RequestTimeout';
  }
}

interface Deadline {
  /** scheduler time at which the call counts as timed out */
  readonly at: number;
  readonly reject: (error: Error) => void;
  settled: boolean;
}

/**
 * Races broker calls against one fixed timeout with a single scheduler action for all of them.
 *
 * Every call's deadline is `now + ms` with the same `ms`, so deadlines arrive in order and a FIFO holds them
 * sorted: one action armed for the oldest open deadline serves every call, and a call that settles only marks
 * its entry. A fan-out of 1,000 orders so costs one timer, not 1,000 created and cancelled (on a
 * `VirtualTimeScheduler` each of those also re-sorted the action list). A call still fails at exactly its own
 * deadline; when nothing is open the action is cancelled, so an idle router holds no timer.
 *
 * Live, `now()` is the wall clock. When the armed action runs, its own deadline counts as reached even if the
 * clock was stepped back meanwhile, so a backward step delays no timeout; a forward step can end calls early,
 * which only makes an order UNKNOWN sooner (resolved by asking the broker, never by resending).
 */
export class RequestTimeouts {
  private entries: Deadline[] = [];
  private head = 0;
  private open = 0;
  /** armed for the oldest open deadline while any call is open */
  private timer: Subscription | undefined;
  /** the deadline the armed action was scheduled for */
  private armedFor = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly scheduler: SchedulerLike,
    readonly ms: number,
  ) {}

  /** calls still waiting for a reply or their deadline */
  get pending(): number {
    return this.open;
  }

  /** Resolves or rejects as `call` does, or rejects with `RequestTimeout` once `ms` pass first. */
  race<T>(call: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Deadline = { at: this.scheduler.now() + this.ms, reject, settled: false };
      this.entries.push(entry);
      this.open += 1;
      if (this.timer === undefined) this.arm(entry.at);
      call.then(
        (value) => {
          if (this.settle(entry)) resolve(value);
        },
        (error: unknown) => {
          if (this.settle(entry)) reject(error);
        },
      );
    });
  }

  /** Marks an entry settled; false when its deadline already fired. */
  private settle(entry: Deadline): boolean {
    if (entry.settled) return false;
    entry.settled = true;
    this.open -= 1;
    if (this.open === 0) this.reset();
    return true;
  }

  private reset(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
    this.entries = [];
    this.head = 0;
  }

  private arm(at: number, from = this.scheduler.now()): void {
    this.armedFor = at;
    this.timer = this.scheduler.schedule(() => this.fire(), Math.max(0, at - from));
  }

  private fire(): void {
    this.timer = undefined;
    const now = Math.max(this.scheduler.now(), this.armedFor);
    const expired: Deadline[] = [];
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head] as Deadline;
      if (!entry.settled) {
        if (entry.at > now) break;
        entry.settled = true;
        this.open -= 1;
        expired.push(entry);
      }
      this.head += 1;
    }
    if (this.head >= 64 && this.head * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    const next = this.entries[this.head];
    if (this.open === 0) this.reset();
    else if (next !== undefined) this.arm(next.at, now);
    // Rejected after the bookkeeping, so a caller reacting to its timeout sees a consistent queue.
    for (const entry of expired) entry.reject(new RequestTimeout(this.ms));
  }
}
