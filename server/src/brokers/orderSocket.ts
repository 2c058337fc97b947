// A broker's order-update WebSocket as a cold stream of `OrderStreamEvent`s (../orderUpdates.ts turns them into
// snapshots, with polling while it is down), for brokers whose order channel is one JSON socket: connect (headers
// where the broker authenticates the upgrade), send a hello frame where it wants a login or subscription (Fyers'
// `SUB_ORD`, Dhan's `LoginReq`), keep it alive, read each text frame into order rows, and reconnect with backoff when
// it closes. Keep-alive is a text `ping` (Fyers: answered `pong`) or a WebSocket ping frame (Dhan: answered by the
// protocol's pong); a socket with nothing heard for `silenceMs` is half-open and is replaced.
import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import WebSocket from 'ws';
import type { OrderStreamEvent } from './orderUpdates';

export interface OrderSocketOptions<Row> {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** sent as soon as the socket opens */
  readonly hello?: string;
  /** the keep-alive: a text `ping` frame, or a WebSocket ping frame */
  readonly ping: 'text' | 'frame';
  /** the order rows of one text frame (none for acknowledgements, pongs and anything else) */
  readonly rowsOf: (text: string) => readonly Row[];
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly backoffMs: readonly number[];
  readonly scheduler: SchedulerLike;
  /** how often the keep-alive goes; default 10 s */
  readonly pingMs?: number;
  /** a socket with nothing received for this long is dropped at the next ping; default 30 s */
  readonly silenceMs?: number;
}

/** A cold stream: subscribing connects (and keeps reconnecting) until unsubscribed. Emits `down` first. */
export function orderSocket$<Row>(options: OrderSocketOptions<Row>): Observable<OrderStreamEvent<Row>> {
  return new Observable<OrderStreamEvent<Row>>((subscriber) => {
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
      const ws = new WebSocket(options.url, { headers: { ...options.headers } });
      socket = ws;
      // When anything was last heard: checked at each ping rather than a timer re-armed on every message, as a
      // thousand accounts' sockets each carry their own.
      let lastHeard = options.scheduler.now();
      const heard = (): void => {
        lastHeard = options.scheduler.now();
      };
      const pingMs = options.pingMs ?? 10_000;
      const silenceMs = options.silenceMs ?? 30_000;
      ws.on('open', () => {
        attempt = 0;
        heard();
        if (options.hello !== undefined) ws.send(options.hello);
        ping = options.scheduler.schedule(function keepAlive() {
          if (options.scheduler.now() - lastHeard > silenceMs) {
            ws.terminate();
            return;
          }
          if (ws.readyState === WebSocket.OPEN) {
            if (options.ping === 'text') ws.send('ping');
            else ws.ping();
          }
          this.schedule(undefined, pingMs);
        }, pingMs);
        subscriber.next({ type: 'up' });
      });
      ws.on('pong', heard);
      ws.on('ping', heard);
      ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
        heard();
        if (isBinary) return;
        for (const row of options.rowsOf(data.toString())) subscriber.next({ type: 'order', row });
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
