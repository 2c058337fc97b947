// Fyers' order socket (`<FYERS_WS_ROOT>/trade/v3`): authorised by the `Authorization: APP_ID:TOKEN` header, it
// takes `{"T":"SUB_ORD","SLIST":["orders"],"SUB_T":1}` and pushes every order transition as `{"orders": {…}}` JSON.
// The client keeps it alive with text "ping" (answered "pong"), as the official client does; a socket silent for
// longer than `silenceMs` (no pong either) is half-open and is dropped. Reconnects back off.
import { Observable } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import WebSocket from 'ws';
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
  return new Observable<OrderSocketEvent>((subscriber) => {
    let socket: WebSocket | undefined;
    let closed = false;
    let attempt = 0;
    let retry: Subscription | undefined;
    let ping: Subscription | undefined;

    const reconnectLater = (): void => {
      ping?.unsubscribe();
      if (closed) return;
      subscriber.next({ type: 'down' });
      const { backoffMs } = options;
      const delay = backoffMs[Math.min(attempt, backoffMs.length - 1)] ?? 1_000;
      attempt += 1;
      retry = options.scheduler.schedule(() => connect(), delay);
    };

    const connect = (): void => {
      if (closed) return;
      const ws = new WebSocket(`${options.wsRoot}${FYERS_ORDER_SOCKET_PATH}`, {
        headers: { Authorization: options.authorization },
      });
      socket = ws;
      // When anything was last heard: checked at each ping rather than a timer re-armed on every message, as a
      // thousand accounts' sockets each carry their own.
      let lastHeard = options.scheduler.now();
      const pingMs = options.pingMs ?? 10_000;
      const silenceMs = options.silenceMs ?? 30_000;
      ws.on('open', () => {
        attempt = 0;
        lastHeard = options.scheduler.now();
        ws.send(JSON.stringify({ T: 'SUB_ORD', SLIST: ['orders'], SUB_T: 1 }));
        ping = options.scheduler.schedule(function keepAlive() {
          if (options.scheduler.now() - lastHeard > silenceMs) {
            ws.terminate();
            return;
          }
          if (ws.readyState === WebSocket.OPEN) ws.send('ping');
          this.schedule(undefined, pingMs);
        }, pingMs);
        subscriber.next({ type: 'up' });
      });
      ws.on('message', (data: WebSocket.RawData) => {
        lastHeard = options.scheduler.now();
        for (const row of orderRowsOfFrame(data.toString())) subscriber.next({ type: 'order', row });
      });
      // 'close' always follows 'error' (a refused upgrade, an expired token): reconnecting there handles both.
      ws.on('error', () => undefined);
      ws.on('close', () => {
        if (socket !== ws) return;
        socket = undefined;
        reconnectLater();
      });
    };

    subscriber.next({ type: 'down' });
    connect();
    return () => {
      closed = true;
      retry?.unsubscribe();
      ping?.unsubscribe();
      const open = socket;
      socket = undefined;
      open?.close(1000);
    };
  });
}
