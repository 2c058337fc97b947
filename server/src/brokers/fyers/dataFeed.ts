// FEED=fyers: Fyers' data socket (HSM, `<FYERS_WS_ROOT>/hsm/v1-5/prod`) as the engine's FeedSource, carrying the
// NIFTY 50 index and the option strikes in play. Binary frames (`hsm.ts`) become engine Ticks and Quotes here and
// nowhere else. The socket authenticates with the access token's `hsm_key`, subscribes once the answer is "K",
// acknowledges data when asked to, pings to stay open, reconnects with backoff and resubscribes; health is `live`
// while index ticks flow, `stale` after 5 s without one, `down` while disconnected.
import { BehaviorSubject, Subject } from 'rxjs';
import WebSocket from 'ws';
import type { FeedHealth, FeedSource, Quote, Tick } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';
import {
  encodeAck,
  encodeAuth,
  encodeChannelResume,
  encodeSubscribe,
  encodeUnsubscribe,
  HSM_PING,
  HsmDecoder,
  hsmKeyOf,
  NIFTY_INDEX_TOPIC,
  type HsmPrice,
} from './hsm';
import { scripTopicOf } from './instruments';

export const FYERS_DATA_SOCKET_PATH = '/hsm/v1-5/prod';

export interface FyersDataFeedOptions {
  readonly wsRoot: string;
  /** `APP_ID:ACCESS_TOKEN`, sent as the upgrade's Authorization header */
  readonly authorization: string;
  readonly accessToken: string;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  readonly now?: () => number;
  readonly staleAfterMs?: number;
  /** waits before reconnect attempts; the last repeats */
  readonly backoffMs?: readonly number[];
  /** keep-alive interval; the official client pings every 30 s by default */
  readonly pingMs?: number;
}

export class FyersDataFeed implements FeedSource {
  readonly kind = 'fyers';
  readonly simulated = false;
  private readonly ticks = new Subject<Tick>();
  private readonly quotes = new Subject<Quote>();
  private readonly health = new BehaviorSubject<FeedHealth>({ status: 'down', lastTickAt: null });
  readonly ticks$ = this.ticks.asObservable();
  readonly quotes$ = this.quotes.asObservable();
  readonly health$ = this.health.asObservable();
  /** option topic (`sf|nse_fo|…`) → canonical symbol */
  private readonly symbols = new Map<string, string>();
  private socket: WebSocket | undefined;
  private authenticated = false;
  private running = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private lastTickAt: number | null = null;

  constructor(private readonly options: FyersDataFeedOptions) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  subscribe(symbol: string): void {
    const instrument = this.options.instrumentOf(symbol);
    if (instrument === undefined) return;
    const topic = scripTopicOf(instrument);
    if (this.symbols.has(topic)) return;
    this.symbols.set(topic, symbol);
    this.send(encodeSubscribe([topic]));
  }

  unsubscribe(symbol: string): void {
    for (const [topic, s] of this.symbols) {
      if (s !== symbol) continue;
      this.symbols.delete(topic);
      this.send(encodeUnsubscribe([topic]));
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
    const staleAfter = this.options.staleAfterMs ?? 5_000;
    this.staleTimer = setInterval(
      () => {
        const current = this.health.value;
        if (
          current.status === 'live' &&
          (this.lastTickAt === null || this.now() - this.lastTickAt > staleAfter)
        ) {
          this.health.next({ status: 'stale', lastTickAt: this.lastTickAt });
        }
      },
      Math.min(1_000, staleAfter / 2),
    );
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.staleTimer);
    clearInterval(this.pingTimer);
    this.socket?.terminate();
    this.socket = undefined;
    this.setHealth('down');
  }

  private setHealth(status: FeedHealth['status']): void {
    if (this.health.value.status !== status || this.health.value.lastTickAt !== this.lastTickAt) {
      this.health.next({ status, lastTickAt: this.lastTickAt });
    }
  }

  private connect(): void {
    const hsmKey = hsmKeyOf(this.options.accessToken);
    const socket = new WebSocket(`${this.options.wsRoot}${FYERS_DATA_SOCKET_PATH}`, {
      headers: { Authorization: this.options.authorization },
    });
    this.socket = socket;
    this.authenticated = false;
    socket.binaryType = 'nodebuffer';
    const decoder = new HsmDecoder();
    // The answer may ask for an acknowledgement every N data messages (the official client's counter).
    let ackEvery = 0;
    let sinceAck = 0;
    socket.on('open', () => {
      // A token without an hsm_key cannot open a data session: the socket closes and backs off like a refusal.
      if (hsmKey === undefined) return socket.close(1000);
      socket.send(encodeAuth(hsmKey));
    });
    socket.on('message', (data, isBinary) => {
      if (!isBinary || !Buffer.isBuffer(data)) return;
      let event;
      try {
        event = decoder.decode(data);
      } catch {
        return; // a corrupt frame: the next snapshot or update carries the prices again
      }
      if (event.type === 'connected') {
        if (!event.ok) return socket.close(1000);
        this.attempt = 0;
        this.authenticated = true;
        ackEvery = event.ackEvery;
        // After a reconnect (or the daily token change) Fyers has forgotten every subscription.
        socket.send(encodeSubscribe([NIFTY_INDEX_TOPIC, ...this.symbols.keys()]));
        socket.send(encodeChannelResume());
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => {
          if (socket.readyState === WebSocket.OPEN) socket.send(HSM_PING);
        }, this.options.pingMs ?? 30_000);
        return;
      }
      if (event.type !== 'prices') return;
      if (event.messageNumber !== undefined && ackEvery > 0) {
        sinceAck += 1;
        if (sinceAck >= ackEvery) {
          sinceAck = 0;
          socket.send(encodeAck(event.messageNumber));
        }
      }
      for (const price of event.prices) this.onPrice(price);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.authenticated = false;
      clearInterval(this.pingTimer);
      this.setHealth('down');
      if (this.running) this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    const backoff = this.options.backoffMs ?? [500, 1_000, 2_000, 5_000, 10_000];
    const wait = backoff[Math.min(this.attempt, backoff.length - 1)] ?? 1_000;
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      if (this.running) this.connect();
    }, wait);
  }

  private send(frame: Buffer): void {
    if (this.authenticated && this.socket?.readyState === WebSocket.OPEN) this.socket.send(frame);
  }

  private onPrice(price: HsmPrice): void {
    if (price.ltp === undefined) return;
    const time = this.now();
    if (price.topic === NIFTY_INDEX_TOPIC) {
      this.lastTickAt = time;
      this.setHealth('live');
      this.ticks.next({ time, price: price.ltp, volume: 0 });
      return;
    }
    const symbol = this.symbols.get(price.topic);
    if (symbol === undefined) return;
    this.quotes.next({
      symbol,
      time,
      bid: price.bid ?? price.ltp,
      ask: price.ask ?? price.ltp,
      ltp: price.ltp,
    });
  }
}
