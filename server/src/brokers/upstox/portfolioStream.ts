// The portfolio stream: a WebSocket on which Upstox pushes every order transition as JSON. Each connection needs a
// fresh authorized URI (single-use), so every reconnect authorizes again; reconnects back off.
import { Observable } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import WebSocket from 'ws';
import type { OrderStreamEvent } from '../orderUpdates';
import { upstoxOrderRowSchema } from './orderStatus';
import { watchSilence } from './silenceWatch';
import type { UpstoxOrderRow } from './orderStatus';

/** What the stream reports: connection changes and order rows. */
export type PortfolioEvent = OrderStreamEvent<UpstoxOrderRow>;

export interface PortfolioStreamOptions {
  /** fetches a fresh single-use `wss://` URI (`/v2/feed/portfolio-stream-feed/authorize`) */
  readonly authorize: () => Promise<string>;
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly backoffMs: readonly number[];
  readonly scheduler: SchedulerLike;
  /** a socket silent (no frame, no ping) this long is dropped and replaced */
  readonly silenceMs?: number;
}

/** The order rows of a text frame; other update types (positions, holdings, GTT) and malformed frames yield none. */
export function orderRowsOf(frame: string): UpstoxOrderRow[] {
  let message: unknown;
  try {
    message = JSON.parse(frame);
  } catch {
    return [];
  }
  if (typeof message !== 'object' || message === null) return [];
  if ((message as { update_type?: unknown }).update_type !== 'order') return [];
  const parsed = upstoxOrderRowSchema.safeParse(message);
  return parsed.success ? [parsed.data] : [];
}

/** A cold stream: subscribing connects (and keeps reconnecting) until unsubscribed. Emits `down` first. */
export function portfolioStream$(options: PortfolioStreamOptions): Observable<PortfolioEvent> {
  return new Observable<PortfolioEvent>((subscriber) => {
    let socket: WebSocket | undefined;
    let closed = false;
    let attempt = 0;
    let retry: Subscription | undefined;

    const reconnectLater = (): void => {
      if (closed) return;
      subscriber.next({ type: 'down' });
      const { backoffMs } = options;
      const delay = backoffMs[Math.min(attempt, backoffMs.length - 1)] ?? 1_000;
      attempt += 1;
      retry = options.scheduler.schedule(() => connect(), delay);
    };

    const connect = (): void => {
      options.authorize().then(
        (uri) => {
          if (closed) return;
          const ws = new WebSocket(uri);
          socket = ws;
          watchSilence(ws, options.silenceMs ?? 60_000, options.scheduler);
          ws.on('open', () => {
            attempt = 0;
            subscriber.next({ type: 'up' });
          });
          ws.on('message', (data: WebSocket.RawData) => {
            for (const row of orderRowsOf(data.toString())) subscriber.next({ type: 'order', row });
          });
          // 'close' always follows 'error'; reconnecting there handles both.
          ws.on('error', () => undefined);
          ws.on('close', () => {
            if (socket !== ws) return;
            socket = undefined;
            reconnectLater();
          });
        },
        () => reconnectLater(),
      );
    };

    subscriber.next({ type: 'down' });
    connect();
    return () => {
      closed = true;
      retry?.unsubscribe();
      const open = socket;
      socket = undefined;
      open?.close(1000);
    };
  });
}
