// An account's order updates: Dhan's order update WebSocket (`<DHAN_ORDERS_WS>` = wss://api-order-update.dhan.co),
// with the order book polled while it is down (and once after each reconnect) by the shared pushedOrderUpdates$.
// The socket takes one JSON login message, `{"LoginReq":{"MsgCode":42,"ClientId":…,"Token":…},"UserType":"SELF"}`,
// then pushes `{"Type":"order_alert","Data":{…}}` per order transition. The connection, WebSocket-ping keep-alive and
// reconnects are the shared orderSocket$ (../orderSocket.ts).
import type { Observable, SchedulerLike } from 'rxjs';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { orderSocket$ } from '../orderSocket';
import { pushedOrderUpdates$, type OrderStreamEvent } from '../orderUpdates';
import { dhanOrderAlertSchema, rowOfAlert, toSnapshot, type DhanOrderRow } from './wire';

/** The production order update host; any other DHAN_WS_ROOT (a fake) serves it on its own host. */
export const DHAN_ORDER_UPDATE_URL = 'wss://api-order-update.dhan.co';
const FEED_HOST = 'api-feed.dhan.co';

export function orderUpdateUrl(wsRoot: string): string {
  const url = new URL(wsRoot);
  return url.hostname === FEED_HOST
    ? DHAN_ORDER_UPDATE_URL
    : `${url.origin.replace(/^http/, 'ws')}/order-update`;
}

/** The login message of the order update socket. */
export function orderUpdateLogin(clientId: string, accessToken: string): string {
  return JSON.stringify({
    LoginReq: { MsgCode: 42, ClientId: clientId, Token: accessToken },
    UserType: 'SELF',
  });
}

/** The order row of one text message; anything but an `order_alert` yields none. */
export function orderRowOf(text: string): DhanOrderRow | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const { Type: type, Data: data } = message as { Type?: unknown; Data?: unknown };
  if (type !== 'order_alert') return undefined;
  const parsed = dhanOrderAlertSchema.safeParse(data);
  return parsed.success ? rowOfAlert(parsed.data) : undefined;
}

export interface OrderUpdateSocketOptions {
  readonly url: string;
  readonly clientId: string;
  readonly accessToken: string;
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly backoffMs: readonly number[];
  readonly scheduler: SchedulerLike;
}

/** A cold stream: subscribing connects (and keeps reconnecting) until unsubscribed. Emits `down` first. */
export function dhanOrderUpdateEvents$(
  options: OrderUpdateSocketOptions,
): Observable<OrderStreamEvent<DhanOrderRow>> {
  return orderSocket$<DhanOrderRow>({
    url: options.url,
    hello: orderUpdateLogin(options.clientId, options.accessToken),
    ping: 'frame',
    rowsOf: (text) => {
      const row = orderRowOf(text);
      return row === undefined ? [] : [row];
    },
    backoffMs: options.backoffMs,
    scheduler: options.scheduler,
  });
}

export interface DhanOrderUpdatesOptions {
  readonly events$: Observable<OrderStreamEvent<DhanOrderRow>>;
  readonly orderBook: () => Promise<DhanOrderRow[]>;
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  readonly pollIntervalMs?: number;
}

/** Hot while subscribed: the first subscriber connects, the last one to leave disconnects. */
export function createDhanOrderUpdates$(options: DhanOrderUpdatesOptions): Observable<BrokerOrderSnapshot> {
  return pushedOrderUpdates$<DhanOrderRow>({
    events$: options.events$,
    orderBook: options.orderBook,
    tagOf: (row) => row.correlationId,
    toSnapshot,
    now: options.now,
    scheduler: options.scheduler,
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
  });
}
