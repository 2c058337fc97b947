// Live data of the signed-in user's dashboard: one Zustand store made of typed slices (STYLE.md §15).
// Socket events and REST polling both write through the actions below via `useLiveStore.getState()`, so the socket
// layer never needs React; components read with small selectors.
import { create, type StateCreator } from 'zustand';
import type {
  BotStatusDetailDto,
  BotStatusDto,
  BrokerConnectionDto,
  CandleDto,
  FeedHealthDto,
  MarketTickDto,
  PaymentRequestDto,
  StrategyInfoDto,
  SubscriptionDto,
  TradeDto,
  UserStatsDto,
} from '@optionpilot/server/contract';

export type CandleInterval = CandleDto['interval'];

/** `connecting` before the first connect, `connected` while events flow, `disconnected` while polling REST. */
export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'disconnected';

/** Most candles kept per interval; the chart's first paint asks for 300, a trading day of 1-minute candles is 375. */
export const MAX_CANDLES = 600;
/** Most trades kept in memory; the dashboard shows 10 and the Trades tab the rest. */
export const MAX_TRADES = 500;

export interface ConnectionSlice {
  connection: ConnectionStatus;
  setConnection: (status: ConnectionStatus) => void;
}

export interface MarketSlice {
  tick: MarketTickDto | null;
  candles: Partial<Record<CandleInterval, CandleDto[]>>;
  feedHealth: FeedHealthDto | null;
  applyTick: (tick: MarketTickDto) => void;
  applyCandle: (candle: CandleDto) => void;
  setCandles: (interval: CandleInterval, candles: CandleDto[]) => void;
  setFeedHealth: (health: FeedHealthDto) => void;
}

export interface StatsSlice {
  stats: UserStatsDto | null;
  setStats: (stats: UserStatsDto) => void;
}

export interface TradesSlice {
  /** newest first */
  trades: TradeDto[];
  /** false until the first REST snapshot arrived, so "No trades yet" is not shown while loading */
  tradesLoaded: boolean;
  setTrades: (trades: TradeDto[]) => void;
  upsertTrade: (trade: TradeDto) => void;
}

export interface BotSlice {
  bot: BotStatusDetailDto | null;
  setBotDetail: (bot: BotStatusDetailDto) => void;
  /** the socket's `bot:status` carries only isRunning/reason; the rest of the detail is kept from REST */
  applyBotStatus: (status: BotStatusDto) => void;
}

/**
 * The white-box description of the strategy the user follows (`GET /api/strategy`, `strategy:info`): every admin
 * change of a control, a strategy or the master switch arrives here, and with it the master switch of the bot
 * detail, which `bot:status` does not carry.
 */
export interface StrategySlice {
  /** null until the server described it */
  strategy: StrategyInfoDto | null;
  setStrategy: (info: StrategyInfoDto) => void;
}

/** The user's subscription and latest UPI payment request, pushed when an admin reviews it (issue 9). */
export interface AccountSlice {
  /** null until the server pushed one; the dashboard's REST copy stands until then */
  subscription: SubscriptionDto | null;
  setSubscription: (subscription: SubscriptionDto) => void;
  /** the newest payment request the user made, as the server last described it */
  paymentRequest: PaymentRequestDto | null;
  applyPaymentRequest: (request: PaymentRequestDto) => void;
  /**
   * how many times the server said the broker connection changed (a position check, a session the broker ended):
   * the views holding a REST copy read it again
   */
  brokerChanges: number;
  /** the broker session as the server last pushed it (`user:broker`), when it pushed one this visit */
  brokerSession: BrokerConnectionDto['session'] | null;
  /** a change the server announced, with the connection it pushed (none: a change made on this page) */
  noteBrokerChange: (connection?: BrokerConnectionDto) => void;
}

export type LiveState = ConnectionSlice &
  MarketSlice &
  StatsSlice &
  TradesSlice &
  BotSlice &
  StrategySlice &
  AccountSlice;

type Slice<T> = StateCreator<LiveState, [], [], T>;

const createConnectionSlice: Slice<ConnectionSlice> = (set) => ({
  connection: 'idle',
  setConnection: (connection) => set({ connection }),
});

/** Inserts or replaces a candle by bucket start, keeping the array sorted by time and bounded. */
export function mergeCandle(candles: readonly CandleDto[], candle: CandleDto): CandleDto[] {
  const last = candles[candles.length - 1];
  // Fast path: the live candle updates the newest bucket or opens the next one.
  if (!last || candle.time > last.time) return trimCandles([...candles, candle]);
  if (candle.time === last.time) return [...candles.slice(0, -1), candle];
  const next = candles.filter((c) => c.time !== candle.time);
  next.push(candle);
  next.sort((a, b) => a.time - b.time);
  return trimCandles(next);
}

function trimCandles(candles: CandleDto[]): CandleDto[] {
  return candles.length > MAX_CANDLES ? candles.slice(candles.length - MAX_CANDLES) : candles;
}

const createMarketSlice: Slice<MarketSlice> = (set) => ({
  tick: null,
  candles: {},
  feedHealth: null,
  applyTick: (tick) =>
    set((s) => {
      // A late REST poll must not overwrite a newer socket tick.
      if (s.tick && Date.parse(s.tick.timestamp) > Date.parse(tick.timestamp)) return {};
      return { tick };
    }),
  applyCandle: (candle) =>
    set((s) => ({
      candles: { ...s.candles, [candle.interval]: mergeCandle(s.candles[candle.interval] ?? [], candle) },
    })),
  setCandles: (interval, candles) =>
    set((s) => ({
      candles: { ...s.candles, [interval]: trimCandles([...candles].sort((a, b) => a.time - b.time)) },
    })),
  setFeedHealth: (feedHealth) => set({ feedHealth }),
});

const createStatsSlice: Slice<StatsSlice> = (set) => ({
  stats: null,
  setStats: (stats) => set({ stats }),
});

function tradeTime(t: TradeDto): number {
  return Date.parse(t.timestamp);
}

/** Newest first by entry time, then by id so trades of the same instant keep a stable order. */
export function sortTradesNewestFirst(trades: TradeDto[]): TradeDto[] {
  return trades.sort((a, b) => tradeTime(b) - tradeTime(a) || b.id - a.id);
}

/** Replaces the trade with the same id (an exit updates the open trade) or adds it; newest first. */
export function upsertTradeList(trades: readonly TradeDto[], trade: TradeDto): TradeDto[] {
  const next = trades.filter((t) => t.id !== trade.id);
  next.push(trade);
  return sortTradesNewestFirst(next).slice(0, MAX_TRADES);
}

const createTradesSlice: Slice<TradesSlice> = (set) => ({
  trades: [],
  tradesLoaded: false,
  setTrades: (trades) =>
    set({ trades: sortTradesNewestFirst([...trades]).slice(0, MAX_TRADES), tradesLoaded: true }),
  upsertTrade: (trade) => set((s) => ({ trades: upsertTradeList(s.trades, trade) })),
});

const createBotSlice: Slice<BotSlice> = (set) => ({
  bot: null,
  setBotDetail: (bot) => set({ bot }),
  applyBotStatus: (status) =>
    set((s) => {
      const base: BotStatusDetailDto = s.bot ?? {
        isRunning: status.isRunning,
        enabled: status.isRunning,
        globalTradingEnabled: s.strategy?.params.tradingEnabled ?? status.isRunning,
        mode: 'paper',
      };
      const next: BotStatusDetailDto = { ...base, isRunning: status.isRunning };
      if (status.reason === undefined) delete next.reason;
      else next.reason = status.reason;
      return { bot: next };
    }),
});

const createStrategySlice: Slice<StrategySlice> = (set) => ({
  strategy: null,
  setStrategy: (strategy) =>
    set((s) => ({
      strategy,
      // The master switch is the strategy's tradingEnabled: the bot detail must not keep the old one.
      bot: s.bot ? { ...s.bot, globalTradingEnabled: strategy.params.tradingEnabled } : s.bot,
    })),
});

const createAccountSlice: Slice<AccountSlice> = (set) => ({
  subscription: null,
  setSubscription: (subscription) => set({ subscription }),
  paymentRequest: null,
  applyPaymentRequest: (request) =>
    set((s) => {
      // An older request (e.g. a late poll of a previous one) must not replace the newest.
      if (s.paymentRequest && s.paymentRequest.id > request.id) return {};
      return { paymentRequest: request };
    }),
  brokerChanges: 0,
  brokerSession: null,
  noteBrokerChange: (connection) =>
    set((s) => ({
      brokerChanges: s.brokerChanges + 1,
      brokerSession: connection === undefined ? s.brokerSession : connection.session,
    })),
});

export const useLiveStore = create<LiveState>()((...a) => ({
  ...createConnectionSlice(...a),
  ...createMarketSlice(...a),
  ...createStatsSlice(...a),
  ...createTradesSlice(...a),
  ...createBotSlice(...a),
  ...createStrategySlice(...a),
  ...createAccountSlice(...a),
}));

const initialLiveState = useLiveStore.getState();

/** Back to the empty state (logout, tests). Actions are kept; only data is replaced. */
export function resetLiveStore(): void {
  useLiveStore.setState(initialLiveState, true);
}
