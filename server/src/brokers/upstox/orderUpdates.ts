// An account's order updates: the portfolio stream, with the order book polled while the stream is down (and once
// after each reconnect, for transitions missed meanwhile), each (order, status, fill) passed once — the shared
// pushed-updates stream (../orderUpdates.ts) over Upstox's portfolio stream.
import { defer } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { pushedOrderUpdates$ } from '../orderUpdates';
import { toSnapshot } from './orderStatus';
import type { UpstoxOrderRow } from './orderStatus';
import { portfolioStream$ } from './portfolioStream';

export interface OrderUpdatesOptions {
  /** a fresh single-use portfolio stream URI */
  readonly authorize: () => Promise<string>;
  /** the day's order book (`/v2/order/retrieve-all`) */
  readonly orderBook: () => Promise<UpstoxOrderRow[]>;
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  /** order-book polling interval while the stream is down; default 3 s */
  readonly pollIntervalMs?: number;
  readonly reconnectBackoffMs?: readonly number[];
}

/** Hot while subscribed: the first subscriber connects, the last one to leave disconnects. */
export function createOrderUpdates$(options: OrderUpdatesOptions): Observable<BrokerOrderSnapshot> {
  return pushedOrderUpdates$<UpstoxOrderRow>({
    events$: defer(() =>
      portfolioStream$({
        authorize: options.authorize,
        backoffMs: options.reconnectBackoffMs ?? [1_000, 2_000, 5_000, 10_000, 30_000],
        scheduler: options.scheduler,
      }),
    ),
    orderBook: options.orderBook,
    tagOf: (row) => row.tag,
    toSnapshot,
    now: options.now,
    scheduler: options.scheduler,
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
  });
}
