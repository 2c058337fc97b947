// A broker's market data over one WebSocket as the engine's FeedSource, for every broker whose feed is a socket it
// opens itself (Kite Ticker, Fyers' data socket, Angel One's SmartStream). What they share lives here once: the
// connection, reconnecting with backoff, the subscriptions carried over to each new connection, health (`live`
// while index ticks flow, `stale` after 5 s without one, `down` while disconnected), and prices turned into
// engine Ticks and Quotes. What differs — the URL and headers, the frames, the decoding — is the broker's
// `SocketFeedProtocol`.
import { BehaviorSubject, Subject } from 'rxjs';
import WebSocket from 'ws';
import type { FeedHealth, FeedSource, Quote, Tick } from '@optionpilot/engine';
import type { BrokerInstrument } from './types';

/** One price a broker's frame carried, by the broker's key of the instrument (a token, a topic). */
export interface FeedPrice {
  readonly key: string;
  readonly ltp: number;
  readonly bid?: number | undefined;
  readonly ask?: number | undefined;
  /** the exchange's time of the price, when the frame has one; else the time it was read */
  readonly time?: number | undefined;
}

/** What a protocol's session may do with its connection. */
export interface FeedLink {
  send(frame: string | Buffer): void;
  /** ends this connection (a refused login): it reconnects with backoff like a dropped one */
  close(): void;
  /**
   * The session is set up (for some brokers at once, for others after a login frame): the index and every option
   * in play are subscribed on it, and the backoff starts over.
   */
  established(): void;
  /** a price read from a frame */
  price(price: FeedPrice): void;
  /** runs `task` every `ms` while this connection lives (keep-alive pings) */
  every(ms: number, task: () => void): void;
}

/** One connection's protocol state: created for each new socket. */
export interface FeedSession {
  /** the socket opened: send a login frame, or call `link.established()` */
  opened(): void;
  message(data: Buffer, isBinary: boolean): void;
  /** subscribes keys on this connection; only called once it is established */
  subscribe(keys: readonly string[]): void;
  unsubscribe(keys: readonly string[]): void;
}

/** A broker's market-data protocol. */
export interface SocketFeedProtocol {
  /** the FeedSource's `kind`: the broker type */
  readonly kind: string;
  /** the NIFTY 50 index's key: its prices are the feed's ticks */
  readonly indexKey: string;
  /** where to connect (a new URL each time: tokens may ride in the query) */
  connection(): { readonly url: string | URL; readonly headers?: Readonly<Record<string, string>> };
  /** the broker's key of an option instrument */
  keyOf(instrument: BrokerInstrument): string | undefined;
  session(link: FeedLink): FeedSession;
}

export interface SocketFeedOptions {
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  readonly now?: () => number;
  readonly staleAfterMs?: number;
  /** waits before reconnect attempts; the last repeats */
  readonly backoffMs?: readonly number[];
}

const DEFAULT_BACKOFF_MS = [500, 1_000, 2_000, 5_000, 10_000] as const;

/** The engine's FeedSource over a broker's market-data socket. */
export class SocketFeed implements FeedSource {
  readonly kind: string;
  readonly simulated = false;
  private readonly ticks = new Subject<Tick>();
  private readonly quotes = new Subject<Quote>();
  private readonly health = new BehaviorSubject<FeedHealth>({ status: 'down', lastTickAt: null });
  readonly ticks$ = this.ticks.asObservable();
  readonly quotes$ = this.quotes.asObservable();
  readonly health$ = this.health.asObservable();
  /** option key → canonical symbol */
  private readonly symbols = new Map<string, string>();
  private connection: { socket: WebSocket; session: FeedSession; established: boolean } | undefined;
  /** timers of the current connection (pings) */
  private readonly connectionTimers = new Set<NodeJS.Timeout>();
  private running = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private lastTickAt: number | null = null;

  constructor(
    private readonly protocol: SocketFeedProtocol,
    private readonly options: SocketFeedOptions,
  ) {
    this.kind = protocol.kind;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  subscribe(symbol: string): void {
    const instrument = this.options.instrumentOf(symbol);
    const key = instrument === undefined ? undefined : this.protocol.keyOf(instrument);
    if (key === undefined || this.symbols.has(key)) return;
    this.symbols.set(key, symbol);
    if (this.connection?.established === true) this.connection.session.subscribe([key]);
  }

  unsubscribe(symbol: string): void {
    const keys = [...this.symbols].filter(([, s]) => s === symbol).map(([key]) => key);
    for (const key of keys) this.symbols.delete(key);
    if (keys.length > 0 && this.connection?.established === true) this.connection.session.unsubscribe(keys);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
    const staleAfter = this.options.staleAfterMs ?? 5_000;
    this.staleTimer = setInterval(
      () => {
        const stale = this.lastTickAt === null || this.now() - this.lastTickAt > staleAfter;
        if (this.health.value.status === 'live' && stale) {
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
    this.clearConnectionTimers();
    this.connection?.socket.terminate();
    this.connection = undefined;
    this.setHealth('down');
  }

  private setHealth(status: FeedHealth['status']): void {
    if (this.health.value.status !== status || this.health.value.lastTickAt !== this.lastTickAt) {
      this.health.next({ status, lastTickAt: this.lastTickAt });
    }
  }

  private clearConnectionTimers(): void {
    for (const timer of this.connectionTimers) clearInterval(timer);
    this.connectionTimers.clear();
  }

  private connect(): void {
    const { url, headers } = this.protocol.connection();
    const socket = new WebSocket(url, headers === undefined ? {} : { headers: { ...headers } });
    socket.binaryType = 'nodebuffer';
    const current = (): boolean => this.connection?.socket === socket;
    const link: FeedLink = {
      send: (frame) => {
        if (current() && socket.readyState === WebSocket.OPEN) socket.send(frame);
      },
      close: () => socket.close(1000),
      established: () => {
        const connection = this.connection;
        if (connection?.socket !== socket || connection.established) return;
        connection.established = true;
        this.attempt = 0;
        // A new connection has no subscriptions (after a reconnect, or the next day's token): all of them again.
        connection.session.subscribe([this.protocol.indexKey, ...this.symbols.keys()]);
      },
      price: (price) => {
        if (current()) this.onPrice(price);
      },
      every: (ms, task) => {
        if (!current()) return;
        this.connectionTimers.add(setInterval(task, ms));
      },
    };
    this.connection = { socket, session: this.protocol.session(link), established: false };
    const { session } = this.connection;
    socket.on('open', () => {
      if (current()) session.opened();
    });
    socket.on('message', (data, isBinary) => {
      if (current() && Buffer.isBuffer(data)) session.message(data, isBinary);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!current()) return;
      this.connection = undefined;
      this.clearConnectionTimers();
      this.setHealth('down');
      if (this.running) this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    const backoff = this.options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const wait = backoff[Math.min(this.attempt, backoff.length - 1)] ?? 1_000;
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      if (this.running) this.connect();
    }, wait);
  }

  private onPrice(price: FeedPrice): void {
    const now = this.now();
    const time = price.time ?? now;
    if (price.key === this.protocol.indexKey) {
      this.lastTickAt = now;
      this.setHealth('live');
      this.ticks.next({ time, price: price.ltp, volume: 0 });
      return;
    }
    const symbol = this.symbols.get(price.key);
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
