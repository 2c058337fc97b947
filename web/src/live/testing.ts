// Test doubles for the live layer: a socket whose server side the test drives, and sample DTOs.
import type {
  BotStatusDetailDto,
  CandleDto,
  MarketTickDto,
  StrategyInfoDto,
  TradeDto,
  UserStatsDto,
} from '@optionpilot/server/contract';
import type { LiveListenEvents, LiveSocketLike } from './socket';

type Listener = (...args: never[]) => void;

/** A socket that never touches the network: the test plays the server with `serverConnect`/`serverEmit`. */
export class FakeSocket implements LiveSocketLike {
  connected = false;
  connectCalls = 0;
  disconnectCalls = 0;
  private readonly listeners = new Map<string, Listener[]>();

  on<E extends keyof LiveListenEvents>(event: E, listener: LiveListenEvents[E]): this {
    const list = this.listeners.get(event) ?? [];
    list.push(listener);
    this.listeners.set(event, list);
    return this;
  }

  connect(): this {
    this.connectCalls += 1;
    return this;
  }

  disconnect(): this {
    this.disconnectCalls += 1;
    if (this.connected) {
      this.connected = false;
      this.serverEmit('disconnect', 'io client disconnect');
    }
    return this;
  }

  /** The handshake succeeded. */
  serverConnect(): void {
    this.connected = true;
    this.serverEmit('connect');
  }

  /** The transport dropped (server restart, network). */
  serverDrop(): void {
    this.connected = false;
    this.serverEmit('disconnect', 'transport close');
  }

  serverEmit<E extends keyof LiveListenEvents>(event: E, ...args: Parameters<LiveListenEvents[E]>): void {
    for (const listener of this.listeners.get(event) ?? []) {
      (listener as (...a: Parameters<LiveListenEvents[E]>) => void)(...args);
    }
  }
}

export function sampleTick(overrides: Partial<MarketTickDto> = {}): MarketTickDto {
  return {
    symbol: 'NIFTY 50',
    price: 24_512.35,
    change: 112.4,
    changePercent: 0.46,
    open: 24_400,
    high: 24_530.1,
    low: 24_380.5,
    volume: 123_456_789,
    timestamp: '2026-03-02T05:00:00.000Z',
    ...overrides,
  };
}

export function sampleTrade(overrides: Partial<TradeDto> = {}): TradeDto {
  return {
    id: 1,
    userId: 7,
    symbol: 'NIFTY26MAR24450CE',
    instrument: 'NIFTY 24450 CE',
    tradeType: 'CALL',
    entryPrice: 120.5,
    exitPrice: null,
    stopLoss: 100.5,
    target: 160.5,
    quantity: 65,
    pnl: null,
    markPnl: null,
    status: 'open',
    exitReason: null,
    paper: true,
    timestamp: '2026-03-02T04:00:00.000Z',
    createdAt: '2026-03-02T04:00:00.000Z',
    closedAt: null,
    ...overrides,
  };
}

export function sampleStats(overrides: Partial<UserStatsDto> = {}): UserStatsDto {
  return {
    todayPnl: 1250.5,
    todayRealisedPnl: 1250.5,
    openPnl: 0,
    openTrades: 0,
    totalTrades: 12,
    winRate: 58.33,
    totalPnl: 8450.25,
    totalRealisedPnl: 8450.25,
    ...overrides,
  };
}

export function sampleBot(overrides: Partial<BotStatusDetailDto> = {}): BotStatusDetailDto {
  return { isRunning: true, enabled: true, globalTradingEnabled: true, mode: 'paper', ...overrides };
}

export function sampleCandle(overrides: Partial<CandleDto> = {}): CandleDto {
  return {
    interval: 1,
    time: Date.parse('2026-03-02T03:45:00.000Z'),
    open: 24_400,
    high: 24_420,
    low: 24_395,
    close: 24_415,
    volume: 0,
    closed: true,
    ...overrides,
  };
}

export function sampleStrategy(params: Partial<StrategyInfoDto['params']> = {}): StrategyInfoDto {
  return {
    name: 'Consecutive-candle breakout',
    intervalMinutes: 1,
    rules: ['CALL setup: the last 3 1-minute candles of the same trading day are all bullish.'],
    session: {
      mode: 'market',
      marketOpen: '09:15',
      marketClose: '15:30',
      entryStart: '09:15',
      entryEnd: '15:00',
      squareOff: '15:15',
    },
    params: {
      consecutiveCandles: 3,
      minMovement: 5,
      entryOffset: 2,
      stopLoss: 20,
      target: 40,
      callEnabled: true,
      putEnabled: true,
      tradingEnabled: true,
      squareOffTime: '15:15',
      ...params,
    },
  };
}
