// Keeps socket fan-out off the tick rate: a "latest value" throttle on a real-time scheduler. The first value goes
// out at once; later ones within the period are coalesced and only the newest is sent when the period ends.
import type { SchedulerLike, Subscription } from 'rxjs';

export interface LatestThrottle<T> {
  push(value: T): void;
  /** drops a value waiting for the end of the period (e.g. a forming candle overtaken by its closed version) */
  cancel(): void;
}

/** Creates a throttle that calls `emit` at most once per `periodMs` of `scheduler` time, always with the newest value. */
export function createLatestThrottle<T>(props: {
  periodMs: number;
  scheduler: SchedulerLike;
  emit: (value: T) => void;
}): LatestThrottle<T> {
  const { periodMs, scheduler, emit } = props;
  let lastEmitAt = Number.NEGATIVE_INFINITY;
  let pending: { value: T } | undefined;
  let timer: Subscription | undefined;

  const flush = () => {
    timer = undefined;
    if (pending === undefined) return;
    const { value } = pending;
    pending = undefined;
    lastEmitAt = scheduler.now();
    emit(value);
  };

  return {
    push(value) {
      pending = { value };
      if (timer !== undefined) return;
      const wait = lastEmitAt + periodMs - scheduler.now();
      if (wait <= 0) flush();
      else timer = scheduler.schedule(flush, wait);
    },
    cancel() {
      pending = undefined;
      timer?.unsubscribe();
      timer = undefined;
    },
  };
}
