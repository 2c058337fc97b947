// Socket.IO event maps, used as the generics of `new Server<...>()` on the server and `io<...>()` in the web app.
// Event names are `<topic>:<verb>`; rooms are `market`, `user-<id>` and `admins`.
import type {
  AdminControlDto,
  AdminTradeDto,
  BotStatusDto,
  CandleDto,
  FeedHealthDto,
  LogDto,
  MarketTickEventDto,
  SignalDto,
  TradeDto,
  UserStatsDto,
} from './dto';
import type { PaymentRequestDto } from './admin';
import type { BrokerConnectionDto, StrategyInfoDto, SubscriptionDto } from './user';

export interface ServerToClientEvents {
  /** the index figures, with the forming one-minute candle when there is one (one frame per tick) */
  'market:tick': (tick: MarketTickEventDto) => void;
  /** a candle that closed (of the chart's interval and the strategies'); forming candles ride in `market:tick` */
  'market:candle': (candle: CandleDto) => void;
  'feed:health': (health: FeedHealthDto) => void;
  'bot:status': (status: BotStatusDto) => void;
  'user:stats': (stats: UserStatsDto) => void;
  'user:trade': (trade: TradeDto) => void;
  /**
   * the strategy the trader follows, as `GET /api/strategy` describes it, after an admin changed a control, a
   * strategy or the master switch (or the trader chose another strategy)
   */
  'strategy:info': (info: StrategyInfoDto) => void;
  'admin:signal': (signal: SignalDto) => void;
  'admin:log': (log: LogDto) => void;
  /**
   * trades opened, updated (mark-to-market P&L, a trailing stop) or closed, as `GET /api/admin/trades` rows: those
   * that changed together (a risk flush moves every open position at once) in one frame, the newest row per trade
   */
  'admin:trades': (trades: AdminTradeDto[]) => void;
  'admin:control': (control: AdminControlDto) => void;
  /** the trader's subscription changed (an approved UPI request, an admin activation) */
  'user:subscription': (subscription: SubscriptionDto) => void;
  /**
   * the trader's broker connection changed on the server's side: positions were reconciled with the broker, or the
   * broker ended the session
   */
  'user:broker': (connection: BrokerConnectionDto) => void;
  /** one of the trader's payment requests was reviewed (a rejection carries the admin's note) */
  'user:payment-request': (request: PaymentRequestDto) => void;
  /**
   * sent just before the server disconnects a socket whose session ended: `logout`, `password_changed`, … or
   * `expired` when the session's token expires while the socket is connected
   */
  'session:revoked': (info: { reason: string }) => void;
}

export interface ClientToServerEvents {
  /** ask for the current snapshot of the caller's rooms; the server answers through the ack */
  'sync:request': (
    payload: { topics: Array<'market' | 'bot' | 'stats'> },
    ack: (result: { ok: true } | { ok: false; error: string; message: string }) => void,
  ) => void;
}

export interface SocketData {
  userId: number;
  isAdmin: boolean;
  sessionId: string;
  /** epoch ms: the session's expiry; the server disconnects the socket then */
  expiresAt: number;
}

export const ROOMS = {
  market: 'market',
  admins: 'admins',
  user: (id: number) => `user-${id}`,
} as const;
