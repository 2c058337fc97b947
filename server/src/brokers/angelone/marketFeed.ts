// SmartStream 2.0 as the engine's FeedSource (FEED=angelone): one WebSocket to `<ANGELONE_WS_ROOT>/smart-stream`,
// authenticated by headers (`Authorization: Bearer <jwt>`, `x-api-key`, `x-client-code`, `x-feed-token`), carrying
// the NIFTY 50 index in LTP mode and the option strikes in play in SnapQuote mode (best bid / ask). Packets become
// engine Ticks and Quotes here and nowhere else. A text `ping` goes every 10 s (Angel answers `pong`); the socket
// reconnects with backoff and subscribes everything again; health is `live` while index ticks flow, `stale` after
// 5 s without one, `down` while disconnected.
import { BehaviorSubject, Subject } from 'rxjs';
import WebSocket from 'ws';
import type { FeedHealth, FeedSource, Quote, Tick } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';
import type { AngelTokens } from './session';
import {
  ACTION,
  decodeSmartStreamPacket,
  EXCHANGE_TYPE,
  MODE,
  NIFTY_INDEX_TOKEN,
  SMART_STREAM_PATH,
  smartStreamRequest,
  type SmartStreamPacket,
} from './smartStream';

export interface AngelMarketFeedOptions {
  readonly wsRoot: string;
  readonly apiKey: string;
  readonly tokens: AngelTokens;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  readonly now?: () => number;
  readonly staleAfterMs?: number;
  /** waits before reconnect attempts; the last repeats */
  readonly backoffMs?: readonly number[];
  readonly pingEveryMs?: number;
}

export class AngelMarketFeed implements FeedSource {
  readonly kind = 'angelone';
  readonly simulated = false;
  private readonly ticks = new Subject<Tick>();
  private readonly quotes = new Subject<Quote>();
  private readonly health = new BehaviorSubject<FeedHealth>({ status: 'down', lastTickAt: null });
  readonly ticks$ = this.ticks.asObservable();
  readonly quotes$ = this.quotes.asObservable();
  readonly health$ = this.health.asObservable();
  /** option symbol token → canonical symbol */
  private readonly symbols = new Map<string, string>();
  private socket: WebSocket | undefined;
  private running = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private lastTickAt: number | null = null;

  constructor(private readonly options: AngelMarketFeedOptions) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  subscribe(symbol: string): void {
    const token = this.options.instrumentOf(symbol)?.token;
    if (token === undefined || this.symbols.has(token)) return;
    this.symbols.set(token, symbol);
    this.send(smartStreamRequest(ACTION.subscribe, MODE.snapQuote, EXCHANGE_TYPE.nseFo, [token]));
  }

  unsubscribe(symbol: string): void {
    for (const [token, s] of this.symbols) {
      if (s !== symbol) continue;
      this.symbols.delete(token);
      this.send(smartStreamRequest(ACTION.unsubscribe, MODE.snapQuote, EXCHANGE_TYPE.nseFo, [token]));
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
    this.pingTimer = setInterval(() => this.send('ping'), this.options.pingEveryMs ?? 10_000);
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
    const { tokens, apiKey } = this.options;
    const socket = new WebSocket(`${this.options.wsRoot}${SMART_STREAM_PATH}`, {
      headers: {
        Authorization: `Bearer ${tokens.jwt}`,
        'x-api-key': apiKey,
        'x-client-code': tokens.clientCode,
        'x-feed-token': tokens.feedToken,
      },
    });
    this.socket = socket;
    socket.binaryType = 'nodebuffer';
    socket.on('open', () => {
      this.attempt = 0;
      // A new connection has no subscriptions: the index and every option in play again.
      this.send(smartStreamRequest(ACTION.subscribe, MODE.ltp, EXCHANGE_TYPE.nseCm, [NIFTY_INDEX_TOKEN]));
      if (this.symbols.size > 0) {
        this.send(
          smartStreamRequest(ACTION.subscribe, MODE.snapQuote, EXCHANGE_TYPE.nseFo, [...this.symbols.keys()]),
        );
      }
    });
    socket.on('message', (data, isBinary) => {
      // Text frames are `pong` and error answers to requests; prices come only in binary frames.
      if (!isBinary || !Buffer.isBuffer(data)) return;
      const packet = decodeSmartStreamPacket(data);
      if (packet !== undefined) this.onPacket(packet);
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

  private send(text: string): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  private onPacket(packet: SmartStreamPacket): void {
    const now = this.now();
    const time = packet.exchangeTime > 0 ? packet.exchangeTime : now;
    if (packet.exchangeType === EXCHANGE_TYPE.nseCm && packet.token === NIFTY_INDEX_TOKEN) {
      this.lastTickAt = now;
      this.setHealth('live');
      this.ticks.next({ time, price: packet.ltp, volume: 0 });
      return;
    }
    const symbol = this.symbols.get(packet.token);
    if (symbol === undefined) return;
    this.quotes.next({
      symbol,
      time,
      bid: packet.bid ?? packet.ltp,
      ask: packet.ask ?? packet.ltp,
      ltp: packet.ltp,
    });
  }
}
