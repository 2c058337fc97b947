import { catchError, defer, distinctUntilChanged, map, merge, of, startWith, switchMap, timer } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Tick } from '../core/types';
import type { FeedHealth } from './feedSource';

/** Options of {@link feedHealth$}. */
export interface FeedHealthOptions {
  /** no tick for this long (scheduler ms) → `stale` */
  readonly staleAfterMs: number;
  /** no tick for this long → `down` */
  readonly downAfterMs: number;
  readonly scheduler: SchedulerLike;
}

/**
 * Health of a tick stream: `down` until the first tick, `live` on every tick, `stale` after `staleAfterMs` without
 * one and `down` after `downAfterMs`; an error in the source means `down`. Emits only when the status changes;
 * `lastTickAt` is the scheduler time the last tick arrived (not the tick's own timestamp, which is historical in a
 * replay).
 */
export function feedHealth$(ticks$: Observable<Tick>, options: FeedHealthOptions): Observable<FeedHealth> {
  const { staleAfterMs, downAfterMs, scheduler } = options;
  if (!(staleAfterMs > 0) || !(downAfterMs > staleAfterMs)) {
    throw new RangeError('feedHealth$ needs 0 < staleAfterMs < downAfterMs');
  }
  const initial: FeedHealth = { status: 'down', lastTickAt: null };
  // defer: each subscriber keeps its own last-tick time.
  return defer(() => {
    let lastTickAt: number | null = null;
    return ticks$.pipe(
      switchMap(() => {
        const at = scheduler.now();
        lastTickAt = at;
        return merge(
          of<FeedHealth>({ status: 'live', lastTickAt: at }),
          timer(staleAfterMs, scheduler).pipe(map((): FeedHealth => ({ status: 'stale', lastTickAt: at }))),
          timer(downAfterMs, scheduler).pipe(map((): FeedHealth => ({ status: 'down', lastTickAt: at }))),
        );
      }),
      catchError(() => of<FeedHealth>({ status: 'down', lastTickAt })),
      startWith(initial),
      distinctUntilChanged((a, b) => a.status === b.status),
    );
  });
}
