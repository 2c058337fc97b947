// The dashboard's live data: socket events feed the live store; while the socket is down the same data is polled
// over REST at the spec's intervals (§9); on every (re)connect the store is resynchronised from REST once
// (liveChannel.ts owns that lifecycle). Nothing runs at import time: `startLiveData()` starts it all.
import type {
  BotStatusDetailDto,
  CandleDto,
  MarketTickDto,
  StrategyInfoDto,
  TradeDto,
  UserStatsDto,
} from '@optionpilot/server/contract';
import { toastError } from '../lib/toast';
import { openLiveChannel } from './liveChannel';
import { useLiveStore } from './stores';
import { createLiveSocket, endRevokedSession, readStoredToken, type LiveSocketLike } from './socket';

/** Spec §9 polling intervals, used only while the socket is down. Candles are not in the spec's list: they are
 * refreshed with the stats so the chart does not freeze during an outage; the strategy (admin controls) with the
 * bot status, whose master switch it carries. */
export const POLL_INTERVALS_MS = {
  market: 1000,
  bot: 3000,
  strategy: 3000,
  stats: 5000,
  trades: 5000,
  candles: 5000,
} as const;

export type LiveResource = keyof typeof POLL_INTERVALS_MS;

/** The chart's first paint: 300 one-minute candles. */
export const CANDLES_PATH = '/api/market/candles?interval=1&limit=300';

export const RESOURCE_PATHS: Record<LiveResource, string> = {
  market: '/api/market/nifty50',
  bot: '/api/user/bot-status',
  strategy: '/api/strategy',
  stats: '/api/user/stats',
  trades: '/api/user/trades',
  candles: CANDLES_PATH,
};

/** A tick older than this, seen while polling, means the feed has stalled even though REST answers. */
export const STALE_TICK_MS = 10_000;

export interface LiveDataDeps {
  /** GET a JSON body (the app's API client: bearer token, error rules of spec §8) */
  get: (path: string) => Promise<unknown>;
  getToken: () => string | null;
  createSocket: (token: string) => LiveSocketLike;
  onSessionRevoked: (reason: string) => void;
  now: () => number;
}

export interface LiveDataController {
  stop: () => void;
}

/** Starts a socket plus the REST fallback and returns the handle that tears both down. */
export function createLiveData(deps: LiveDataDeps): LiveDataController {
  const store = useLiveStore.getState;
  let socketHealthSeen = false;

  const apply: Record<LiveResource, (body: unknown) => void> = {
    market: (body) => {
      const tick = body as MarketTickDto;
      store().applyTick(tick);
      if (!socketHealthSeen || store().connection !== 'connected') {
        // Without `feed:health` events, judge the feed by the age of the tick REST hands us.
        const age = deps.now() - Date.parse(tick.timestamp);
        const prev = store().feedHealth;
        store().setFeedHealth({
          source: prev?.source ?? 'rest',
          status: age <= STALE_TICK_MS ? 'live' : 'stale',
          lastTickAt: tick.timestamp,
        });
      }
    },
    bot: (body) => store().setBotDetail(body as BotStatusDetailDto),
    strategy: (body) => store().setStrategy(body as StrategyInfoDto),
    stats: (body) => store().setStats(body as UserStatsDto),
    trades: (body) => store().setTrades(body as TradeDto[]),
    candles: (body) => store().setCandles(1, body as CandleDto[]),
  };

  const token = deps.getToken();
  if (!token) {
    // Signed out: there is no socket to open and the user endpoints would answer 401.
    return { stop: () => undefined };
  }

  const socket = deps.createSocket(token);
  socket.on('market:tick', ({ candle, ...tick }) => {
    store().applyTick(tick);
    // The forming chart candle rides in the tick's frame (one frame per tick); closed ones come on `market:candle`.
    if (candle) store().applyCandle(candle);
  });
  socket.on('market:candle', (candle) => store().applyCandle(candle));
  socket.on('feed:health', (health) => {
    socketHealthSeen = true;
    store().setFeedHealth(health);
  });
  socket.on('user:stats', (stats) => store().setStats(stats));
  socket.on('user:trade', (trade) => store().upsertTrade(trade));
  socket.on('bot:status', (status) => store().applyBotStatus(status));
  socket.on('strategy:info', (info) => store().setStrategy(info));
  socket.on('user:subscription', (subscription) => store().setSubscription(subscription));
  socket.on('user:payment-request', (request) => store().applyPaymentRequest(request));
  socket.on('user:broker', (connection) => {
    const before = store().brokerSession;
    store().noteBrokerChange(connection);
    // The broker refused this server's IP on an order: the trader learns it at once, whatever page is open — once
    // per block, not again with every later push while it lasts.
    if (connection.session === 'ip_blocked' && before !== 'ip_blocked' && connection.lastError) {
      toastError('IP not allowed', connection.lastError, { autoClose: false });
    }
  });

  const channel = openLiveChannel({
    get: deps.get,
    socket,
    paths: RESOURCE_PATHS,
    intervalsMs: POLL_INTERVALS_MS,
    apply,
    connection: () => store().connection,
    setConnection: (connection) => store().setConnection(connection),
    onSessionRevoked: deps.onSessionRevoked,
  });
  return { stop: channel.stop };
}

// One live connection per browser tab: the dashboard starts it on mount and stops it on unmount/logout. The handle
// lives here (not in React state) so the socket layer and tests can stop it without a component.
let current: LiveDataController | null = null;

/** Default wiring for the app: the stored token, the real socket, and the given REST getter. */
export function defaultLiveDataDeps(get: LiveDataDeps['get']): LiveDataDeps {
  return {
    get,
    getToken: readStoredToken,
    createSocket: createLiveSocket,
    onSessionRevoked: endRevokedSession,
    now: () => Date.now(),
  };
}

/** Starts live data once; a second call while running is a no-op. */
export function startLiveData(deps: LiveDataDeps): void {
  if (current) return;
  current = createLiveData(deps);
}

/** Stops the socket and any polling; safe to call when nothing runs. */
export function stopLiveData(): void {
  current?.stop();
  current = null;
}
