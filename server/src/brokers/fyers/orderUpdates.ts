// An account's order updates: the order socket, with the order book polled while the socket is down (and once
// after each reconnect, for transitions missed meanwhile), each (order, status, fill) passed once — the shared
// pushed-updates stream (../orderUpdates.ts) over Fyers' order socket.
import type { Observable, SchedulerLike } from 'rxjs';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { pushedOrderUpdates$ } from '../orderUpdates';
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
  return pushedOrderUpdates$<FyersOrderRow>({
    events$: options.socket$,
    orderBook: options.orderBook,
    tagOf: (row) => row.orderTag,
    toSnapshot,
    now: options.now,
    scheduler: options.scheduler,
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
  });
}
