// An account's order updates: the order socket, with the order book polled while the socket is down (and once
// after each reconnect, for transitions missed meanwhile), each (order, status, fill) passed once.
import {
  catchError,
  defer,
  distinctUntilChanged,
  EMPTY,
  exhaustMap,
  filter,
  from,
  map,
  merge,
  mergeMap,
  of,
  share,
  switchMap,
  takeWhile,
  timer,
} from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import { isBrokerError } from '@optionpilot/engine';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { clientOrderIdOfTag } from '../orderTag';
import type { OrderSocketEvent } from './orderSocket';
import { toSnapshot, type FyersOrderRow } from './wire';

export interface FyersOrderUpdatesOptions {
  /** the order socket's events (`fyersOrderSocket$`) */
  readonly socket$: Observable<OrderSocketEvent>;
  /** the day's order book */
  readonly orderBook: () => Promise<FyersOrderRow[]>;
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  /** order-book polling interval while the socket is down; default 3 s */
  readonly pollIntervalMs?: number;
}

/** Hot while subscribed: the first subscriber connects, the last one to leave disconnects. */
export function fyersOrderUpdates$(options: FyersOrderUpdatesOptions): Observable<BrokerOrderSnapshot> {
  return defer(() => {
    const events$ = options.socket$.pipe(share());
    const pushed$ = events$.pipe(mergeMap((event) => (event.type === 'order' ? of(event.row) : EMPTY)));
    const pollMs = options.pollIntervalMs ?? 3_000;
    const polled$ = events$.pipe(
      filter((event) => event.type !== 'order'),
      map((event) => event.type),
      distinctUntilChanged(),
      // Down: poll until it is back. Up: poll once, for what changed while it was down.
      switchMap((state) => (state === 'down' ? timer(0, pollMs, options.scheduler) : of(0))),
      exhaustMap(() =>
        from(options.orderBook()).pipe(
          // An ended session stays ended (a new login brings a new adapter): stop polling rather than knock
          // every few seconds all night. Other failures are retried at the next interval.
          catchError((error: unknown) =>
            isBrokerError(error) && error.kind === 'auth_expired' ? of(null) : EMPTY,
          ),
        ),
      ),
      takeWhile((rows): rows is FyersOrderRow[] => rows !== null),
      mergeMap((rows) => rows.filter((row) => clientOrderIdOfTag(row.orderTag) !== undefined)),
    );
    // The same transition can arrive from both paths: pass each (order, status, fill) once.
    const seen = new Map<string, string>();
    // The polling side subscribes first: the socket reports `down` as soon as it is subscribed, and that first
    // state must reach it.
    return merge(polled$, pushed$).pipe(
      map((row) => toSnapshot(row, options.now())),
      filter((snapshot) => {
        const key = `${snapshot.status}/${snapshot.filledQty}`;
        if (seen.get(snapshot.brokerOrderId) === key) return false;
        seen.set(snapshot.brokerOrderId, key);
        return true;
      }),
    );
  }).pipe(share());
}
