// Lifecycle of the dashboard's live data: socket events feed the live store; while the socket is down the same data
// is polled over REST at the spec's intervals (§9); on every (re)connect the store is resynchronised from REST once,
// because events sent while we were away are lost. Nothing runs at import time: `startLiveData()` starts it all.
import type {
  BotStatusDetailDto,
  CandleDto,
  MarketTickDto,
  TradeDto,
  UserStatsDto,
} from '@optionpilot/server/contract';
import { useLiveStore } from './stores';
import { createLiveSocket, endRevokedSession, readStoredToken, type LiveSocketLike } from './socket';

/** Spec §9 polling intervals, used only while the socket is down. Candles are not in the spec's list: they are
 * refreshed with the stats so the chart does not freeze during an outage. */
export const POLL_INTERVALS_MS = {
  market: 1000,
  bot: 3000,
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
  const timers: ReturnType<typeof setInterval>[] = [];
  // resource → epoch of its pending request
  const inFlight = new Map<LiveResource, number>();
  // Bumped on every connect/disconnect/stop: a REST answer that started in an older epoch is dropped, so a slow
  // poll cannot overwrite fresher socket data (the resync of the new epoch supplies the truth).
  let epoch = 0;
  let stopped = false;
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
    stats: (body) => store().setStats(body as UserStatsDto),
    trades: (body) => store().setTrades(body as TradeDto[]),
    candles: (body) => store().setCandles(1, body as CandleDto[]),
  };

  function fetchResource(resource: LiveResource): void {
    if (inFlight.get(resource) === epoch) return; // a slow server must not pile up requests every second
    const started = epoch;
    inFlight.set(resource, started);
    deps
      .get(RESOURCE_PATHS[resource])
      .then((body) => {
        if (!stopped && started === epoch) apply[resource](body);
      })
      .catch(() => {
        // Polling errors are not toasted (one a second would drown the page); a 401 is handled by the API client
        // and the next poll or resync retries the rest.
      })
      .finally(() => {
        if (inFlight.get(resource) === started) inFlight.delete(resource);
      });
  }

  function resyncOnce(): void {
    for (const resource of Object.keys(RESOURCE_PATHS) as LiveResource[]) fetchResource(resource);
  }

  function startPolling(): void {
    if (timers.length > 0) return;
    for (const [resource, ms] of Object.entries(POLL_INTERVALS_MS) as [LiveResource, number][]) {
      timers.push(setInterval(() => fetchResource(resource), ms));
    }
  }

  function stopPolling(): void {
    for (const t of timers.splice(0)) clearInterval(t);
  }

  function onConnect(): void {
    if (stopped) return;
    epoch += 1;
    stopPolling();
    store().setConnection('connected');
    resyncOnce();
  }

  function onDown(): void {
    if (stopped) return;
    if (store().connection === 'disconnected') return;
    epoch += 1;
    store().setConnection('disconnected');
    startPolling();
  }

  const token = deps.getToken();
  if (!token) {
    // Signed out: there is no socket to open and the user endpoints would answer 401.
    return { stop: () => undefined };
  }

  const socket = deps.createSocket(token);
  socket.on('connect', onConnect);
  socket.on('disconnect', onDown);
  socket.on('connect_error', onDown);
  socket.on('market:tick', (tick) => store().applyTick(tick));
  socket.on('market:candle', (candle) => store().applyCandle(candle));
  socket.on('feed:health', (health) => {
    socketHealthSeen = true;
    store().setFeedHealth(health);
  });
  socket.on('user:stats', (stats) => store().setStats(stats));
  socket.on('user:trade', (trade) => store().upsertTrade(trade));
  socket.on('bot:status', (status) => store().applyBotStatus(status));
  socket.on('session:revoked', ({ reason }) => {
    stop();
    deps.onSessionRevoked(reason);
  });

  // Until the socket is up the page is fed by REST: a first snapshot now, then the polling cadence.
  store().setConnection('connecting');
  resyncOnce();
  startPolling();
  socket.connect();

  function stop(): void {
    if (stopped) return;
    stopped = true;
    epoch += 1;
    stopPolling();
    socket.disconnect();
    store().setConnection('idle');
  }

  return { stop };
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
