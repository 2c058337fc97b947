// Response shapes (DTOs). Presenters in server/src/presenters build exactly these; nothing else goes on the wire.
// Money is integer paise unless a field name says rupees; times are ISO-8601 UTC strings unless named `...Ms`.

export type SubscriptionStatus = 'active' | 'pending' | 'inactive' | 'expired';

/**
 * Every canonical broker type (DOMAIN.md §3), declared once: the server's registry says which of them have an
 * integration on this server, and the web reads the list and the labels from here.
 */
export const BROKER_TYPES = ['zerodha', 'upstox', 'aliceblue', 'fyers', 'groww', 'angelone', 'dhan'] as const;
export type BrokerType = (typeof BROKER_TYPES)[number];

/** Display names of every broker type. */
export const BROKER_LABELS: Readonly<Record<BrokerType, string>> = {
  zerodha: 'Zerodha',
  upstox: 'Upstox',
  aliceblue: 'Alice Blue',
  fyers: 'Fyers',
  groww: 'Groww',
  angelone: 'Angel One',
  dhan: 'Dhan',
};

/** The signed-in user as `GET /api/auth/me` and the login response return it. Never carries secrets. */
export interface UserDto {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  isAdmin: boolean;
  brokerType: BrokerType | null;
  brokerConnected: boolean;
  subscriptionStatus: SubscriptionStatus;
  subscriptionStartDate: string | null;
  subscriptionEndDate: string | null;
  createdAt: string;
  lastActive: string | null;
}

export interface AuthResponse {
  success: true;
  token: string;
  user: UserDto;
  message?: string;
}

export interface SuccessResponse {
  success: boolean;
  message: string;
}

export interface PasswordResetRequestResponse extends SuccessResponse {
  /** only when no mail transport is configured (test mode) */
  resetLink?: string;
}

export interface InitAdminResponse extends SuccessResponse {
  email: string;
  /** generated once, shown once */
  password: string;
}

/** Every error response. `error` is a stable id from the server's catalogue, `message` is for people. */
export interface ErrorResponse {
  error: string;
  message: string;
  /** the offending field, for validation errors */
  field?: string;
}

export type SubsystemStatus = 'ok' | 'degraded' | 'down';

export interface HealthResponse {
  status: SubsystemStatus;
  version: string;
  uptimeSeconds: number;
  time: string;
  subsystems: Record<string, { status: SubsystemStatus; detail?: string }>;
}

/** `GET /api/market/nifty50` and the `market:tick` event (which may add the forming candle, see MarketTickEventDto). */
export interface MarketTickDto {
  symbol: string;
  price: number;
  change: number;
  changePercent: number;
  open: number;
  high: number;
  low: number;
  volume: number;
  /** ISO-8601 UTC */
  timestamp: string;
}

export interface CandleDto {
  interval: 1 | 3 | 5 | 15;
  /** bucket start, epoch ms */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  closed: boolean;
}

/**
 * The `market:tick` event: the index figures plus, while a one-minute candle is forming, that candle (the chart's
 * interval). It rides in the tick's frame so a tick costs one frame, not two (decided 2026-11-23); closed candles of
 * every broadcast interval still come on `market:candle`.
 */
export interface MarketTickEventDto extends MarketTickDto {
  candle?: CandleDto;
}

export interface FeedHealthDto {
  source: string;
  status: 'live' | 'stale' | 'down';
  lastTickAt: string | null;
}

export interface BotStatusDto {
  isRunning: boolean;
  reason?: string;
}

/**
 * A trader's figures (`GET /api/user/stats` and the `user:stats` push). Rupees with two decimals, derived from paise
 * at the edge. Realised P&L is of closed trades, net of charges; open P&L is the open positions marked to the last
 * option quote, before charges. `todayPnl` and `totalPnl` include the open P&L, so an open trade at +₹52 never sits
 * beside ₹0.00; the parts are given too.
 */
export interface UserStatsDto {
  /** today's realised P&L + the open P&L */
  todayPnl: number;
  /** realised P&L of the trades closed today (IST day on the engine's clock) */
  todayRealisedPnl: number;
  /** open positions marked to market, before charges */
  openPnl: number;
  /** open positions counted in `openPnl` */
  openTrades: number;
  /** closed trades */
  totalTrades: number;
  /** percent of closed trades with a profit */
  winRate: number;
  /** realised P&L of every closed trade + the open P&L */
  totalPnl: number;
  /** realised P&L of every closed trade */
  totalRealisedPnl: number;
}

export type TradeStatus = 'open' | 'closed' | 'cancelled';

export interface TradeDto {
  id: number;
  userId: number;
  symbol: string;
  instrument: string;
  tradeType: 'CALL' | 'PUT';
  /** premium in rupees per unit */
  entryPrice: number;
  exitPrice: number | null;
  stopLoss: number;
  target: number;
  quantity: number;
  /** rupees, net of charges; null while open */
  pnl: number | null;
  /** an open trade's gross P&L at the last option quote (mark to market), rupees; null when closed or unquoted */
  markPnl: number | null;
  status: TradeStatus;
  exitReason: string | null;
  paper: boolean;
  timestamp: string;
  createdAt: string;
  closedAt: string | null;
}

export interface AdminTradeDto extends TradeDto {
  user: { firstName: string; lastName: string; email: string };
}

export interface AdminControlDto {
  settingName: string;
  value: string;
  updatedAt: string;
}

export interface SignalDto {
  id: number;
  timestamp: string;
  type: 'CALL' | 'PUT';
  conditionMet: string;
  entryTrigger: number;
  niftyPrice: number;
  executed: boolean;
}

export interface LogDto {
  id: number;
  timestamp: string;
  eventType: string;
  description: string;
  userId: number | null;
}
