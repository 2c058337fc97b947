// An account's order updates: Angel's order-status WebSocket (`/smart-order-update`), with the order book polled
// while the socket is down (and once after each reconnect, for transitions missed meanwhile); each (order, status,
// fill) passed once. The socket authenticates by headers (`Authorization: Bearer <jwt>`, `x-api-key`,
// `x-client-code`, `x-feed-token`), answers our text `ping` with `pong`, sends `{"order-status":"AB00"}` once
// connected and then one JSON message per order transition: `{"user-id", "status-code", "order-status": "AB01"…,
// "error-message", "orderData": {…an order book row…}}`. The connection, keep-alive, silence check and reconnects
// are the shared orderSocket$ (../orderSocket.ts).
import type { Observable, SchedulerLike } from 'rxjs';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { orderSocket$ } from '../orderSocket';
import { pushedOrderUpdates$, type OrderStreamEvent } from '../orderUpdates';
import { angelOrderRowSchema, toSnapshot, type AngelOrderRow } from './wire';

export const ANGEL_ORDER_STATUS_PATH = '/smart-order-update';

/** The production SmartStream host, and the host Angel serves the order-status socket on beside it. */
const SMART_STREAM_HOST = 'smartapisocket.angelone.in';
const ORDER_STATUS_HOST = 'tns.angelone.in';

/**
 * The order-status socket's URL. Angel serves it on its own host (`wss://tns.angelone.in`), the one Angel socket
 * not on ANGELONE_WS_ROOT's: with the production root it goes there; any other root (a fake) serves both.
 */
export function orderStatusSocketUrl(wsRoot: string): string {
  const url = new URL(wsRoot);
  if (url.hostname === SMART_STREAM_HOST) url.hostname = ORDER_STATUS_HOST;
  return `${url.origin.replace(/^http/, 'ws')}${ANGEL_ORDER_STATUS_PATH}`;
}

/** What the socket reports: connection changes and order rows. */
export type OrderStatusEvent = OrderStreamEvent<AngelOrderRow>;

/** The order row of one text message; the connection acknowledgement (AB00), `pong` and anything else yield none. */
export function orderRowOf(text: string): AngelOrderRow | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const { 'order-status': code, orderData } = message as { 'order-status'?: unknown; orderData?: unknown };
  if (code === 'AB00') return undefined;
  const parsed = angelOrderRowSchema.safeParse(orderData);
  return parsed.success ? parsed.data : undefined;
}

export interface OrderStatusSocketOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly backoffMs: readonly number[];
  readonly scheduler: SchedulerLike;
  /** how often `ping` is sent (Angel's clients send one every 10 s) */
  readonly pingEveryMs?: number;
  /** a socket silent this long (not even a `pong`) is dropped and replaced: it is half-open */
  readonly silenceMs?: number;
}

/** A cold stream: subscribing connects (and keeps reconnecting) until unsubscribed. Emits `down` first. */
export function orderStatusEvents$(options: OrderStatusSocketOptions): Observable<OrderStatusEvent> {
  return orderSocket$<AngelOrderRow>({
    url: options.url,
    headers: options.headers,
    ping: 'text',
    rowsOf: (text) => {
      const row = orderRowOf(text);
      return row === undefined ? [] : [row];
    },
    backoffMs: options.backoffMs,
    scheduler: options.scheduler,
    ...(options.pingEveryMs === undefined ? {} : { pingMs: options.pingEveryMs }),
    ...(options.silenceMs === undefined ? {} : { silenceMs: options.silenceMs }),
  });
}

export interface AngelOrderUpdatesOptions {
  readonly events$: Observable<OrderStatusEvent>;
  /** the day's order book (`getOrderBook`) */
  readonly orderBook: () => Promise<AngelOrderRow[]>;
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  /** order-book polling interval while the socket is down; default 3 s (Angel allows the order book 1/s) */
  readonly pollIntervalMs?: number;
}

/** Hot while subscribed: the first subscriber connects, the last one to leave disconnects. */
export function createAngelOrderUpdates$(options: AngelOrderUpdatesOptions): Observable<BrokerOrderSnapshot> {
  return pushedOrderUpdates$<AngelOrderRow>({
    events$: options.events$,
    orderBook: options.orderBook,
    tagOf: (row) => row.ordertag,
    toSnapshot,
    now: options.now,
    scheduler: options.scheduler,
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
  });
}
