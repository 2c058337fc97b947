// An account's order updates: NOREN's order subscription on ANT's socket (noren.ts), with the order book polled
// while it is down and once after each reconnect (../orderUpdates.ts). Each connection makes a socket session,
// logs in and subscribes to the account's orders; it counts as up only once that subscription is acknowledged
// (`{t: "ok"}`), so without pushed order messages the order book keeps being polled. A socket silent for 30 s (not
// even a heartbeat answer) is half-open and replaced.
import { Observable, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import WebSocket from 'ws';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { pushedOrderUpdates$, type OrderStreamEvent } from '../orderUpdates';
import type { AliceTokens } from './login';
import {
  NOREN_HEARTBEAT,
  NOREN_PATH,
  norenLoginFrame,
  norenOrderSubscription,
  readNorenFrame,
} from './noren';
import { toSnapshot, type AliceOrderRow } from './wire';

export type AliceOrderEvent = OrderStreamEvent<AliceOrderRow>;

export interface AliceOrderSocketOptions {
  readonly wsRoot: string;
  readonly tokens: AliceTokens;
  readonly createSocketSession: () => Promise<void>;
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly backoffMs: readonly number[];
  readonly scheduler: SchedulerLike;
  readonly heartbeatEveryMs?: number;
  readonly silenceMs?: number;
}

/** A cold stream: subscribing connects (and keeps reconnecting) until unsubscribed. Emits `down` first. */
export function aliceOrderEvents$(options: AliceOrderSocketOptions): Observable<AliceOrderEvent> {
  return new Observable<AliceOrderEvent>((subscriber) => {
    let socket: WebSocket | undefined;
    let closed = false;
    let attempt = 0;
    const timers: Subscription[] = [];
    let silence: Subscription | undefined;

    const quietFor = (ws: WebSocket): void => {
      silence?.unsubscribe();
      silence = options.scheduler.schedule(() => ws.terminate(), options.silenceMs ?? 30_000);
    };
    const clearTimers = (): void => {
      for (const t of timers.splice(0)) t.unsubscribe();
      silence?.unsubscribe();
    };

    const reconnectLater = (): void => {
      clearTimers();
      if (closed) return;
      subscriber.next({ type: 'down' });
      const delay = options.backoffMs[Math.min(attempt, options.backoffMs.length - 1)] ?? 1_000;
      attempt += 1;
      timers.push(options.scheduler.schedule(() => connect(), delay));
    };

    const open = (): void => {
      const ws = new WebSocket(`${options.wsRoot}${NOREN_PATH}`);
      socket = ws;
      ws.on('open', () => {
        quietFor(ws);
        ws.send(norenLoginFrame(options.tokens.userId, options.tokens.userSession));
      });
      ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
        quietFor(ws);
        if (isBinary) return;
        const frame = readNorenFrame(data.toString());
        if (frame.kind === 'login') {
          if (!frame.ok) return void ws.close();
          attempt = 0;
          ws.send(norenOrderSubscription(options.tokens.userId));
          const every = options.heartbeatEveryMs ?? 10_000;
          timers.push(
            options.scheduler.schedule(function beat(this: SchedulerAction<undefined>) {
              if (ws.readyState === WebSocket.OPEN) ws.send(NOREN_HEARTBEAT);
              this.schedule(undefined, every);
            }, every),
          );
          // Up only once the order subscription is acknowledged: a socket that takes no order subscription
          // stays "down", so the order book keeps being polled.
        } else if (frame.kind === 'orders') subscriber.next({ type: 'up' });
        else if (frame.kind === 'order') subscriber.next({ type: 'order', row: frame.row });
      });
      // 'close' always follows 'error' (a refused handshake included); reconnecting there handles both.
      ws.on('error', () => undefined);
      ws.on('close', () => {
        if (socket !== ws) return;
        socket = undefined;
        reconnectLater();
      });
    };

    const connect = (): void => {
      options.createSocketSession().then(
        () => {
          if (!closed) open();
        },
        () => reconnectLater(),
      );
    };

    subscriber.next({ type: 'down' });
    connect();
    return () => {
      closed = true;
      clearTimers();
      const live = socket;
      socket = undefined;
      live?.terminate();
    };
  });
}

export interface AliceOrderUpdatesOptions {
  readonly events$: Observable<AliceOrderEvent>;
  readonly orderBook: () => Promise<AliceOrderRow[]>;
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  /** order-book polling interval while the socket is down; default 3 s */
  readonly pollIntervalMs?: number;
}

/** Hot while subscribed: the first subscriber connects, the last one to leave disconnects. */
export function createAliceOrderUpdates$(options: AliceOrderUpdatesOptions): Observable<BrokerOrderSnapshot> {
  return pushedOrderUpdates$<AliceOrderRow>({
    events$: options.events$,
    orderBook: options.orderBook,
    tagOf: (row) => row.remarks,
    toSnapshot,
    now: options.now,
    scheduler: options.scheduler,
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
  });
}
