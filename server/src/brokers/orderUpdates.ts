// An account's order updates from a broker's push channel (an order socket or stream), with the day's order book
// polled while the channel is down and once after each reconnect (for transitions missed meanwhile); each
// (order, status, fill) is passed once, whichever path brought it. Shared by the brokers whose updates arrive on a
// socket (Upstox's portfolio stream, Fyers' order socket, Angel One's order-status socket); each gives its events,
// its order book and how its rows read.
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
import { clientOrderIdOfTag } from './orderTag';

/** Statuses after which a broker reports nothing new about an order. */
const FINAL_STATUSES: ReadonlySet<BrokerOrderSnapshot['status']> = new Set([
  'FILLED',
  'REJECTED',
  'CANCELLED',
  'EXPIRED',
]);

/** What a broker's push channel reports: whether it is up, and the order rows it pushes. */
export type OrderStreamEvent<Row> =
  { readonly type: 'up' } | { readonly type: 'down' } | { readonly type: 'order'; readonly row: Row };

export interface PushedOrderUpdatesOptions<Row> {
  /** the channel's events; subscribing connects it, unsubscribing disconnects */
  readonly events$: Observable<OrderStreamEvent<Row>>;
  /** the day's order book */
  readonly orderBook: () => Promise<readonly Row[]>;
  /** the tag a row carries: only OptionPilot's orders (tagged with a client order id) are passed on */
  readonly tagOf: (row: Row) => string | null | undefined;
  readonly toSnapshot: (row: Row, now: number) => BrokerOrderSnapshot;
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  /** order-book polling interval while the channel is down; default 3 s */
  readonly pollIntervalMs?: number;
}

/** Hot while subscribed: the first subscriber connects, the last one to leave disconnects. */
export function pushedOrderUpdates$<Row>(
  options: PushedOrderUpdatesOptions<Row>,
): Observable<BrokerOrderSnapshot> {
  return defer(() => {
    const events$ = options.events$.pipe(share());
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
      takeWhile((rows): rows is readonly Row[] => rows !== null),
      // The day's book holds the trader's own orders too: only OptionPilot's (tagged) are passed on.
      mergeMap((rows) => rows.filter((row) => clientOrderIdOfTag(options.tagOf(row)) !== undefined)),
    );
    // The same transition can arrive from both paths: pass each (order, status, fill) once. And a read that started
    // before a push can answer after it: a state older than the one passed (less filled, or open after final) is
    // dropped, never passed on as news.
    const seen = new Map<string, { key: string; filledQty: number; final: boolean }>();
    // The polling side subscribes first: a channel may report `down` as soon as it is subscribed, and that first
    // state must reach it.
    return merge(polled$, pushed$).pipe(
      map((row) => options.toSnapshot(row, options.now())),
      filter((snapshot) => {
        const key = `${snapshot.status}/${snapshot.filledQty}`;
        const last = seen.get(snapshot.brokerOrderId);
        if (last !== undefined && (last.key === key || last.final || snapshot.filledQty < last.filledQty)) {
          return false;
        }
        seen.set(snapshot.brokerOrderId, {
          key,
          filledQty: snapshot.filledQty,
          final: FINAL_STATUSES.has(snapshot.status),
        });
        return true;
      }),
    );
  }).pipe(share());
}
