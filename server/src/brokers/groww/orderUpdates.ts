// An account's order updates at Groww: pushed on its socket (socket.ts) on the subject
// `stocks_fo/order/updates.apex.<subscriptionId>` as `OrderDetailsBroadCastDto` (proto.ts), with the day's order
// list polled while the socket is down and once after each reconnect (the shared ../orderUpdates.ts, as Angel One
// and Fyers do). A pushed update names the order by Groww's id but carries neither our reference id (the tag) nor
// the trading symbol: the reference comes from the order list read before or the adapter's own placements, or else
// from the order's detail (one call). Updates keep their order while a detail is asked for.
import { Observable, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import WebSocket from 'ws';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { pushedOrderUpdates$, type OrderStreamEvent } from '../orderUpdates';
import { decodeOrderUpdate } from './proto';
import { GrowwNatsSession, type GrowwSocketCredentials } from './socket';
import { toSnapshot, type GrowwOrder } from './wire';

export const growwOrderSubject = (subscriptionId: string): string =>
  `stocks_fo/order/updates.apex.${subscriptionId}`;

/** The adapter's reads the updates need. */
export interface GrowwOrderReads {
  /** the day's FNO orders, every page */
  readonly orderList: () => Promise<GrowwOrder[]>;
  /** one order's row; undefined when Groww has none */
  readonly orderDetail: (growwOrderId: string) => Promise<GrowwOrder | undefined>;
  /** an order the adapter placed and Groww answered, as far as the adapter knows it */
  readonly placed?: (growwOrderId: string) => GrowwOrder | undefined;
}

export interface GrowwOrderSocketOptions {
  readonly url: string;
  readonly credentials: () => Promise<GrowwSocketCredentials>;
  /** an order update (reference-less) as a full row; undefined drops it */
  readonly complete: (pushed: GrowwOrder) => Promise<GrowwOrder | undefined>;
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly backoffMs: readonly number[];
  readonly scheduler: SchedulerLike;
  /** default 30 s */
  readonly pingEveryMs?: number;
  /** a socket silent this long (not even a PONG) is dropped and replaced: it is half-open; default 75 s */
  readonly silenceMs?: number;
}

/** A cold stream: subscribing connects (and keeps reconnecting) until unsubscribed. Emits `down` first. */
export function growwOrderEvents$(
  options: GrowwOrderSocketOptions,
): Observable<OrderStreamEvent<GrowwOrder>> {
  return new Observable<OrderStreamEvent<GrowwOrder>>((subscriber) => {
    let socket: WebSocket | undefined;
    let closed = false;
    let attempt = 0;
    let retry: Subscription | undefined;
    let pinger: Subscription | undefined;
    let silence: Subscription | undefined;
    // Pushed updates in arrival order, though completing one may wait on a call.
    let queue: Promise<void> = Promise.resolve();

    const quietFor = (ws: WebSocket): void => {
      silence?.unsubscribe();
      silence = options.scheduler.schedule(() => ws.terminate(), options.silenceMs ?? 75_000);
    };

    const connect = (): void => {
      const ws = new WebSocket(options.url);
      ws.binaryType = 'nodebuffer';
      socket = ws;
      const session = new GrowwNatsSession({
        send: (frame) => {
          if (ws.readyState === WebSocket.OPEN) ws.send(frame);
        },
        close: () => ws.terminate(),
        credentials: options.credentials,
        ready: (subscriptionId) => {
          attempt = 0;
          session.subscribe(growwOrderSubject(subscriptionId));
          const every = options.pingEveryMs ?? 30_000;
          pinger = options.scheduler.schedule(function ping(this: SchedulerAction<undefined>) {
            session.ping();
            this.schedule(undefined, every);
          }, every);
          subscriber.next({ type: 'up' });
        },
        message: (subject, payload) => {
          const pushed = subject.startsWith('stocks_fo/order/') ? decodeOrderUpdate(payload) : undefined;
          if (pushed === undefined) return;
          queue = queue
            .then(() => options.complete(pushed))
            .then(
              (row) => {
                if (row !== undefined && !closed) subscriber.next({ type: 'order', row });
              },
              () => undefined,
            );
        },
      });
      ws.on('open', () => quietFor(ws));
      ws.on('message', (data) => {
        quietFor(ws);
        if (Buffer.isBuffer(data)) session.data(data);
      });
      // 'close' always follows 'error' (a refused handshake included); reconnecting there handles both.
      ws.on('error', () => undefined);
      ws.on('close', () => {
        if (socket !== ws) return;
        socket = undefined;
        pinger?.unsubscribe();
        silence?.unsubscribe();
        if (closed) return;
        subscriber.next({ type: 'down' });
        const delay = options.backoffMs[Math.min(attempt, options.backoffMs.length - 1)] ?? 1_000;
        attempt += 1;
        retry = options.scheduler.schedule(connect, delay);
      });
    };

    subscriber.next({ type: 'down' });
    connect();
    return () => {
      closed = true;
      retry?.unsubscribe();
      pinger?.unsubscribe();
      silence?.unsubscribe();
      const open = socket;
      socket = undefined;
      open?.terminate();
    };
  });
}

/**
 * Completes pushed updates with the reference id and trading symbol: from the rows of the last order-list reads, the
 * orders the adapter placed (their answer already in), or else the order's detail (an update that beat the
 * placement's answer, an order placed elsewhere). Only an update's own numbers are taken from the push.
 */
export class GrowwOrderRows {
  private readonly known = new Map<string, GrowwOrder>();

  constructor(private readonly reads: GrowwOrderReads) {}

  /** The order list, its rows remembered. */
  async orderList(): Promise<GrowwOrder[]> {
    const rows = await this.reads.orderList();
    for (const row of rows) this.known.set(row.groww_order_id, row);
    return rows;
  }

  async complete(pushed: GrowwOrder): Promise<GrowwOrder | undefined> {
    let base = this.known.get(pushed.groww_order_id) ?? this.reads.placed?.(pushed.groww_order_id);
    if (base === undefined) {
      base = await this.reads.orderDetail(pushed.groww_order_id);
      if (base === undefined) return undefined;
      this.known.set(base.groww_order_id, base);
    }
    return {
      ...base,
      order_status: pushed.order_status,
      filled_quantity: pushed.filled_quantity,
      average_fill_price: pushed.average_fill_price,
      remark: pushed.remark ?? base.remark,
      // the push has no time: the snapshot is stamped with when it arrived
      created_at: null,
      exchange_time: null,
    };
  }
}

export interface GrowwOrderUpdatesOptions {
  readonly reads: GrowwOrderReads;
  readonly socket: (complete: GrowwOrderRows) => Observable<OrderStreamEvent<GrowwOrder>>;
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  /** order-list polling while the socket is down; default 2 s (non-trading calls: 20/s, 500/min) */
  readonly pollIntervalMs?: number;
}

/** The account's order updates: pushed, the order list polled as the fallback. Hot while subscribed. */
export function createGrowwOrderUpdates$(options: GrowwOrderUpdatesOptions): Observable<BrokerOrderSnapshot> {
  const rows = new GrowwOrderRows(options.reads);
  return pushedOrderUpdates$<GrowwOrder>({
    events$: options.socket(rows),
    orderBook: () => rows.orderList(),
    tagOf: (row) => row.order_reference_id,
    toSnapshot,
    now: options.now,
    scheduler: options.scheduler,
    pollIntervalMs: options.pollIntervalMs ?? 2_000,
  });
}
