// Fyers' order socket (`<FYERS_WS_ROOT>/trade/v3`): authorised by the `Authorization: APP_ID:TOKEN` header, it
// takes `{"T":"SUB_ORD","SLIST":["orders"],"SUB_T":1}` and pushes every order transition as `{"orders": {…}}` JSON.
// The client keeps it alive with text "ping" (answered "pong"), as the official client does; the connection,
// keep-alive, silence check and reconnects are the shared orderSocket$ (../orderSocket.ts).
import type { Observable, SchedulerLike } from 'rxjs';
import { orderSocket$ } from '../orderSocket';
import type { OrderStreamEvent } from '../orderUpdates';
import { fyersSocketOrderSchema, rowOfSocketOrder, type FyersOrderRow } from './wire';

export const FYERS_ORDER_SOCKET_PATH = '/trade/v3';

/** What the stream reports: connection changes and order rows. */
export type OrderSocketEvent = OrderStreamEvent<FyersOrderRow>;

export interface OrderSocketOptions {
  /** `wss://socket.fyers.in` */
  readonly wsRoot: string;
  /** `APP_ID:ACCESS_TOKEN` */
  readonly authorization: string;
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly backoffMs: readonly number[];
  readonly scheduler: SchedulerLike;
  /** how often "ping" is sent; default 10 s */
  readonly pingMs?: number;
  /** a socket with nothing received (not even a pong) for this long is dropped at the next ping; default 30 s */
  readonly silenceMs?: number;
}

/** The order rows of a text frame; trades, positions, acknowledgements and malformed frames yield none. */
export function orderRowsOfFrame(frame: string): FyersOrderRow[] {
  if (frame === 'pong') return [];
  let message: unknown;
  try {
    message = JSON.parse(frame);
  } catch {
    return [];
  }
  if (typeof message !== 'object' || message === null || !('orders' in message)) return [];
  const parsed = fyersSocketOrderSchema.safeParse((message as { orders: unknown }).orders);
  return parsed.success ? [rowOfSocketOrder(parsed.data)] : [];
}

/** A cold stream: subscribing connects (and keeps reconnecting) until unsubscribed. Emits `down` first. */
export function fyersOrderSocket$(options: OrderSocketOptions): Observable<OrderSocketEvent> {
  return orderSocket$<FyersOrderRow>({
    url: `${options.wsRoot}${FYERS_ORDER_SOCKET_PATH}`,
    headers: { Authorization: options.authorization },
    hello: JSON.stringify({ T: 'SUB_ORD', SLIST: ['orders'], SUB_T: 1 }),
    ping: 'text',
    rowsOf: orderRowsOfFrame,
    backoffMs: options.backoffMs,
    scheduler: options.scheduler,
    ...(options.pingMs === undefined ? {} : { pingMs: options.pingMs }),
    ...(options.silenceMs === undefined ? {} : { silenceMs: options.silenceMs }),
  });
}
