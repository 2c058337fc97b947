// The trading service as the rest of the server sees it: routes, sockets and health depend on this port only, so
// the runtime behind it can change without touching them.
import type { RiskPosition } from '@optionpilot/engine';
import type {
  BotStatusDetailDto,
  CandleDto,
  FeedHealthDto,
  MarketSessionDto,
  MarketTickDto,
  StrategyInfoDto,
  UserStatsDto,
} from '../contract';
import type { CandleInterval } from './marketView';

export interface TradingService {
  start(): Promise<void>;
  /** stops the feed and timers, waits for work in flight and writes the latest risk state of open positions */
  stop(): Promise<void>;
  /** re-reads admin_controls (the admin routes call it after a change; also done every 30 s) */
  reloadControls(): Promise<void>;
  /** whether the bot would trade for this user now, and why not */
  botStatus(userId: number): Promise<BotStatusDetailDto>;
  /** a user's settings, bot switch or subscription changed: re-evaluate and push `bot:status` */
  onUserChanged(userId: number): Promise<void>;
  /** today's P&L (closed net + open unrealised), totals and win rate of closed trades */
  statsFor(userId: number): Promise<UserStatsDto>;
  /** an open trade's gross P&L at the last quote (rupees), null when closed or not quoted yet */
  markPnl(tradeId: number): number | null;
  /** units per lot of the contract a new position would buy at `now` (the current weekly expiry's) */
  lotSize(now: number): number;
  marketTick(): MarketTickDto | null;
  candles(interval: CandleInterval, limit: number): CandleDto[];
  feedHealth(): FeedHealthDto;
  /**
   * the last tick: its market-clock time (epoch ms) and how long ago it arrived, measured on the server's real-time
   * clock alone; nulls before the first tick
   */
  lastTick(): { time: number | null; ageMs: number | null };
  /** the white-box description of the strategy `userId` follows (the default one without a user) */
  strategyInfo(userId?: number): Promise<StrategyInfoDto>;
  /**
   * now on the market clock (the engine's), which signals, trades and candles are stamped on: the server's clock on
   * a broker's live feed, faster on a simulated or replayed market
   */
  marketNow(): number;
  /** the trading day's times, the market clock and the session now (`GET /api/market/session`) */
  marketSession(): Promise<MarketSessionDto>;
  /** positions under risk management (their stops and high-water marks) */
  openPositions(): readonly RiskPosition[];
  /** kill switch: squares off every open position now (new entries follow the controls); returns how many */
  flattenAll(): Promise<number>;
  /** resolves when queued signal, entry and exit work has finished */
  idle(): Promise<void>;
}
