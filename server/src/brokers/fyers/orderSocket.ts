// Fyers' order socket (`<FYERS_WS_ROOT>/trade/v3`): authorised by the `Authorization: APP_ID:TOKEN` header, it
// takes `{"T":"SUB_ORD","SLIST":["orders"],"SUB_T":1}` and pushes every order transition as `{"orders": {…}}` JSON.
// The client keeps it alive with text "ping" (answered "pong"), as the official client does; a socket silent for
// longer than `silenceMs` (no pong either) is half-open and is dropped. Reconnects back off.
import { Observable } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import WebSocket from 'ws';
import { fyersSocketOrderSchema, rowOfSocketOrder, type FyersOrderRow } from './wire';

export const FYERS_ORDER_SOCKET_PATH = '/trade/v3';

/** What the stream reports: connection changes and order rows. */
export type OrderSocketEvent =
  | { readonly type: 'up' }
  | { readonly type: 'down' }
  | { readonly type: 'order'; readonly row: FyersOrderRow };

export interface OrderSocketOptions {
  /** `wss://socket.fyers.in` */
  readonly wsRoot: string;
  /** `APP_ID:ACCESS_TOKEN` */
  readonly authorization: string;
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly backoffMs: readonly number[];
  readonly scheduler: SchedulerLike;
  /** how often "ping" is sent; default 5 s */
  readonly pingMs?: number;
  /** a socket with nothing received for this long is dropped; default 20 s */
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
    let silence: Subscription | undefined;

    const watch = (ws: WebSocket): void => {
      silence?.unsubscribe();
      silence = options.scheduler.schedule(() => ws.terminate(), options.silenceMs ?? 20_000);
    };

    const reconnectLater = (): void => {
      ping?.unsubscribe();
      silence?.unsubscribe();
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
      ws.on('open', () => {
        attempt = 0;
        watch(ws);
        ws.send(JSON.stringify({ T: 'SUB_ORD', SLIST: ['orders'], SUB_T: 1 }));
        ping = options.scheduler.schedule(function keepAlive() {
          if (ws.readyState === WebSocket.OPEN) ws.send('ping');
          this.schedule(undefined, options.pingMs ?? 5_000);
        }, options.pingMs ?? 5_000);
        subscriber.next({ type: 'up' });
      });
      ws.on('message', (data: WebSocket.RawData) => {
        watch(ws);
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
      silence?.unsubscribe();
      const open = socket;
      socket = undefined;
      open?.close(1000);
    };
  });
}
