// The Kite Ticker as the engine's FeedSource: one WebSocket (`wsRoot?api_key=…&access_token=…`) carrying the
// NIFTY 50 index (token 256265) and the option strikes in play in `full` mode (best bid / ask). Binary packets
// become engine Ticks and Quotes here and nowhere else. The socket reconnects with backoff and resubscribes;
// health is `live` while ticks flow, `stale` after 5 s without one, `down` while disconnected.
import { BehaviorSubject, Subject } from 'rxjs';
import WebSocket from 'ws';
import type { FeedHealth, FeedSource, Quote, Tick } from '@optionpilot/engine';
import type { BrokerInstrument } from '../../types';
import { decodeKiteFrame, type KitePacket } from './packets';

export const NIFTY_INDEX_TOKEN = 256265;

export interface KiteTickerFeedOptions {
  readonly wsRoot: string;
  readonly apiKey: string;
  readonly accessToken: string;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  readonly now?: () => number;
  readonly staleAfterMs?: number;
  /** waits before reconnect attempts; the last repeats */
  readonly backoffMs?: readonly number[];
}

export class KiteTickerFeed implements FeedSource {
  readonly kind = 'zerodha';
  readonly simulated = false;
  private readonly ticks = new Subject<Tick>();
  private readonly quotes = new Subject<Quote>();
  private readonly health = new BehaviorSubject<FeedHealth>({ status: 'down', lastTickAt: null });
  readonly ticks$ = this.ticks.asObservable();
  readonly quotes$ = this.quotes.asObservable();
  readonly health$ = this.health.asObservable();
  /** option token → canonical symbol */
  private readonly symbols = new Map<number, string>();
  private socket: WebSocket | undefined;
  private running = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private lastTickAt: number | null = null;

  constructor(private readonly options: KiteTickerFeedOptions) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  subscribe(symbol: string): void {
    const instrument = this.options.instrumentOf(symbol);
    const token = instrument === undefined ? NaN : Number(instrument.token);
    if (!Number.isInteger(token) || this.symbols.has(token)) return;
    this.symbols.set(token, symbol);
    this.send([token]);
  }

  unsubscribe(symbol: string): void {
    for (const [token, s] of this.symbols) {
      if (s !== symbol) continue;
      this.symbols.delete(token);
      if (this.socket?.readyState === WebSocket.OPEN)
        this.socket.send(JSON.stringify({ a: 'unsubscribe', v: [token] }));
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
    const url = new URL(this.options.wsRoot);
    url.searchParams.set('api_key', this.options.apiKey);
    url.searchParams.set('access_token', this.options.accessToken);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.binaryType = 'nodebuffer';
    socket.on('open', () => {
      this.attempt = 0;
      // After a reconnect (or the daily token change) Kite has forgotten every subscription.
      this.send([NIFTY_INDEX_TOKEN, ...this.symbols.keys()]);
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary && Buffer.isBuffer(data)) this.onFrame(data);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
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

  private send(tokens: number[]): void {
    if (this.socket?.readyState !== WebSocket.OPEN || tokens.length === 0) return;
    this.socket.send(JSON.stringify({ a: 'subscribe', v: tokens }));
    this.socket.send(JSON.stringify({ a: 'mode', v: ['full', tokens] }));
  }

  private onFrame(data: Buffer): void {
    for (const packet of decodeKiteFrame(data)) this.onPacket(packet);
  }

  private onPacket(packet: KitePacket): void {
    const time = this.now();
    if (packet.token === NIFTY_INDEX_TOKEN) {
      this.lastTickAt = time;
      this.setHealth('live');
      this.ticks.next({ time: packet.exchangeTime ?? time, price: packet.lastPrice, volume: 0 });
      return;
    }
    const symbol = this.symbols.get(packet.token);
    if (symbol === undefined) return;
    this.quotes.next({
      symbol,
      time: packet.exchangeTime ?? time,
      bid: packet.bid ?? packet.lastPrice,
      ask: packet.ask ?? packet.lastPrice,
      ltp: packet.lastPrice,
    });
  }
}
