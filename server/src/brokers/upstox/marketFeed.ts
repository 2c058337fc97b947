// Upstox market data feed v3 as the engine's `FeedSource`: a WebSocket opened on a single-use authorized URI,
// JSON subscription requests sent as binary frames, protobuf `FeedResponse` frames back (`market_info` first).
// NIFTY 50 index ticks come from `NSE_INDEX|Nifty 50` (LTPC mode); option quotes from full mode (best bid/ask).
import { randomUUID } from 'node:crypto';
import { asyncScheduler, Subject } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import WebSocket from 'ws';
import { feedHealth$, parseOptionSymbol } from '@optionpilot/engine';
import type { FeedSource, Quote, Tick } from '@optionpilot/engine';
import { z } from 'zod';
import type { BrokerInstrument } from '../types';
import { upstoxRequest } from './http';
import { NIFTY_INDEX_KEY } from './instruments';
import { createFeedResponseCodec } from './marketDataFeedV3';
import { watchSilence } from './silenceWatch';
import type { WireFeed, WireFeedResponse, WireLtpc } from './marketDataFeedV3';

export interface UpstoxFeedOptions {
  readonly apiRoot: string;
  readonly accessToken: string;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  readonly now: () => number;
  readonly scheduler?: SchedulerLike;
  /** waits before the 1st, 2nd, … reconnect; the last repeats */
  readonly reconnectBackoffMs?: readonly number[];
  /** a socket silent (no frame, no ping) this long is dropped and replaced */
  readonly silenceMs?: number;
}

const authorizeSchema = z.object({
  status: z.literal('success'),
  data: z.object({ authorized_redirect_uri: z.string().min(1) }),
});

/** A subscription request as Upstox takes it: JSON, sent as a binary frame. */
export function subscriptionFrame(
  method: 'sub' | 'unsub',
  instrumentKeys: readonly string[],
  mode?: string,
): Buffer {
  const data = mode === undefined ? { instrumentKeys } : { mode, instrumentKeys };
  return Buffer.from(JSON.stringify({ guid: randomUUID(), method, data }));
}

function ltpcOf(feed: WireFeed): WireLtpc | undefined {
  return (
    feed.ltpc ??
    feed.fullFeed?.marketFF?.ltpc ??
    feed.fullFeed?.indexFF?.ltpc ??
    feed.firstLevelWithGreeks?.ltpc
  );
}

/** The index tick and option quotes of one decoded frame (`market_info` frames carry neither). */
export function readFeedResponse(
  message: WireFeedResponse,
  symbolOfKey: (instrumentKey: string) => string | undefined,
  now: number,
): { ticks: Tick[]; quotes: Quote[] } {
  const ticks: Tick[] = [];
  const quotes: Quote[] = [];
  if (message.type === 'market_info') return { ticks, quotes };
  for (const [key, feed] of Object.entries(message.feeds ?? {})) {
    const ltpc = ltpcOf(feed);
    const ltp = ltpc?.ltp;
    if (ltp === undefined || !(ltp > 0)) continue;
    const time = ltpc?.ltt || message.currentTs || now;
    if (key === NIFTY_INDEX_KEY) {
      ticks.push({ time, price: ltp, volume: 0 });
      continue;
    }
    const symbol = symbolOfKey(key);
    if (symbol === undefined) continue;
    const depth =
      feed.fullFeed?.marketFF?.marketLevel?.bidAskQuote?.[0] ?? feed.firstLevelWithGreeks?.firstDepth;
    // An empty side of the book (no bids or no asks) falls back to the LTP rather than a zero price.
    const bid = depth?.bidP && depth.bidP > 0 ? depth.bidP : ltp;
    const ask = depth?.askP && depth.askP > 0 ? depth.askP : ltp;
    quotes.push({ symbol, time, bid, ask, ltp });
  }
  return { ticks, quotes };
}

/** Creates the feed; nothing connects until `start()`. */
export function createUpstoxFeed(options: UpstoxFeedOptions): FeedSource {
  const scheduler = options.scheduler ?? asyncScheduler;
  const backoffMs = options.reconnectBackoffMs ?? [1_000, 2_000, 5_000, 10_000, 30_000];
  const codec = createFeedResponseCodec();
  const ticks = new Subject<Tick>();
  const quotes = new Subject<Quote>();
  const keyOfSymbol = new Map<string, string>();
  const symbolOfKey = new Map<string, string>();
  /** subscribed symbols the instrument master did not list yet; mapped again at every (re)connect */
  const unmapped = new Set<string>();
  let socket: WebSocket | undefined;
  let running = false;
  let attempt = 0;
  let retry: Subscription | undefined;

  const send = (frame: Buffer): void => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(frame);
  };

  const onFrame = (data: WebSocket.RawData): void => {
    let message: WireFeedResponse;
    try {
      message = codec.decode(data instanceof Buffer ? data : Buffer.from(data as ArrayBuffer));
    } catch {
      return; // a frame we cannot decode is skipped; health turns stale if no good one follows
    }
    const read = readFeedResponse(message, (key) => symbolOfKey.get(key), options.now());
    for (const tick of read.ticks) ticks.next(tick);
    for (const quote of read.quotes) quotes.next(quote);
  };

  const reconnectLater = (): void => {
    if (!running) return;
    const delay = backoffMs[Math.min(attempt, backoffMs.length - 1)] ?? 1_000;
    attempt += 1;
    retry = scheduler.schedule(() => connect(), delay);
  };

  async function authorize(): Promise<string> {
    const body = await upstoxRequest({
      method: 'GET',
      url: `${options.apiRoot}/v3/feed/market-data-feed/authorize`,
      accessToken: options.accessToken,
    });
    const parsed = authorizeSchema.safeParse(body);
    if (!parsed.success) throw new Error('upstox feed authorization not understood');
    return parsed.data.data.authorized_redirect_uri;
  }

  function connect(): void {
    // Authorized URIs are single-use: every (re)connect asks for a new one.
    authorize().then(
      (uri) => {
        if (!running) return;
        const ws = new WebSocket(uri);
        socket = ws;
        watchSilence(ws, options.silenceMs ?? 60_000, scheduler);
        ws.on('open', () => {
          attempt = 0;
          send(subscriptionFrame('sub', [NIFTY_INDEX_KEY], 'ltpc'));
          for (const symbol of unmapped) map(symbol);
          if (symbolOfKey.size > 0) send(subscriptionFrame('sub', [...symbolOfKey.keys()], 'full'));
        });
        ws.on('message', onFrame);
        ws.on('error', () => undefined); // 'close' follows and reconnects
        ws.on('close', () => {
          if (socket !== ws) return;
          socket = undefined;
          reconnectLater();
        });
      },
      () => reconnectLater(),
    );
  }

  /** Records the symbol's instrument key; false while the master does not list it. */
  function map(symbol: string): boolean {
    const key = options.instrumentOf(symbol)?.token;
    if (key === undefined) {
      // Not listed (yet): no quotes rather than a wrong contract.
      unmapped.add(symbol);
      return false;
    }
    unmapped.delete(symbol);
    keyOfSymbol.set(symbol, key);
    symbolOfKey.set(key, symbol);
    return true;
  }

  return {
    kind: 'upstox',
    simulated: false,
    ticks$: ticks.asObservable(),
    quotes$: quotes.asObservable(),
    health$: feedHealth$(ticks.asObservable(), { staleAfterMs: 5_000, downAfterMs: 30_000, scheduler }),
    subscribe(symbol) {
      if (!parseOptionSymbol(symbol)) {
        throw new RangeError(`"${symbol}" is not a canonical option symbol like NIFTY01DEC2624000CE`);
      }
      if (keyOfSymbol.has(symbol) || !map(symbol)) return;
      send(subscriptionFrame('sub', [keyOfSymbol.get(symbol) as string], 'full'));
    },
    unsubscribe(symbol) {
      unmapped.delete(symbol);
      const key = keyOfSymbol.get(symbol);
      if (key === undefined) return;
      keyOfSymbol.delete(symbol);
      symbolOfKey.delete(key);
      send(subscriptionFrame('unsub', [key]));
    },
    start() {
      if (running) return;
      running = true;
      attempt = 0;
      connect();
    },
    stop() {
      running = false;
      retry?.unsubscribe();
      retry = undefined;
      const open = socket;
      socket = undefined;
      open?.close(1000);
    },
  };
}
