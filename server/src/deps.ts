// Everything a route, service or socket handler needs, built once per server in app.ts and passed explicitly
// (no module-level singletons, so several servers can run side by side in one test process).
import type { Config } from './config';
import type { Logger } from './logger';
import type { Database } from './db';
import type { Clock } from './clock';
import type { PasswordHasher } from './auth/passwords';
import type { TokenService } from './auth/tokens';
import type { RateLimiter } from './auth/rateLimiter';
import type { Mailer } from './mail/mailer';
import type { HealthRegistry } from './health/registry';
import type { Realtime } from './realtime/publisher';
import type { TradingService } from './trading/api';
import type { NotificationSender } from './notifications/sender';
import type { UnsubscribeLinks } from './notifications/unsubscribe';
import type { Metrics } from './metrics/metrics';

export interface Deps {
  config: Config;
  logger: Logger;
  db: Database;
  clock: Clock;
  passwords: PasswordHasher;
  tokens: TokenService;
  limiter: RateLimiter;
  /** null when SMTP_URL is unset (test mode: reset links are logged and returned) */
  mailer: Mailer | null;
  health: HealthRegistry;
  realtime: Realtime;
  /** the engine inside the server: market data, bot status, controls reload (started by startServer) */
  trading: TradingService;
  /**
   * the notification sender (started by startServer): code that recorded a notice calls `wake()` after its
   * transaction committed (never awaited); the admin page's test send and channel list
   */
  notifications: NotificationSender;
  /** signed one-click unsubscribe links of notification e-mails */
  unsubscribe: UnsubscribeLinks;
  /** this server's Prometheus registry, scraped at `GET /metrics` (metrics/README.md) */
  metrics: Metrics;
}

/** Who a request or socket acts as. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  requestId: string;
}
