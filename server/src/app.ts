// Assembles the server: Koa (security headers, request ids, errors, body parsing, /api, the web app) and Socket.IO
// on one node http.Server. `startServer` is used by main.ts and by tests (port 0, temporary DATA_DIR).
import type { Server as HttpServer } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import helmet from 'koa-helmet';
import { Server as SocketServer } from 'socket.io';
import { assertProductionReady, type Config } from './config';
import { createLogger, type Logger } from './logger';
import { checkDatabase, closeDatabase, migrateLatest, openDatabase, type Database } from './db';
import { loadOrCreateJwtKey } from './crypto';
import { systemClock, type Clock } from './clock';
import { createPasswordHasher } from './auth/passwords';
import { createTokenService } from './auth/tokens';
import { createMemoryRateLimiter, type RateLimiter } from './auth/rateLimiter';
import { createSmtpMailer, type Mailer } from './mail/mailer';
import { createHealthRegistry } from './health/registry';
import { createRealtime, type RealtimeServer } from './realtime/publisher';
import { attachGateway } from './realtime/gateway';
import type { Deps } from './deps';
import type { AppState } from './middleware/context';
import { requestContext } from './middleware/requestContext';
import { errorRenderer } from './middleware/errors';
import { answerOptions, requireJsonBody } from './middleware/requestPolicy';
import { brokerRegistryFromConfig, type BrokerRegistry } from './brokers/registry';
import { apiNotFound, apiRouter } from './routes';
import { createPaymentGateway, type PaymentGateway } from './payments/gateway';
import { startOrderReconciliation } from './payments/reconcile';
import { startNotificationSchedule } from './notifications/schedule';
import { startSubscriptionJobs } from './subscriptions/expiry';
import { createTradingService, type TradingServiceOptions } from './trading/service';
import { keepDemoAccount } from './demo/account';
import { webApp } from './web';
import { createBoundedServer } from './httpServer';
import { buildChannels } from './notifications/channels';
import { renderNotice } from './notifications/render';
import { createNotificationSender } from './notifications/sender';
import type { NotificationChannel } from './notifications/types';
import { createUnsubscribeLinks } from './notifications/unsubscribe';
import { countPendingNotices } from './notifications/outbox';
import { createMetrics } from './metrics/metrics';
import { metricsEndpoint } from './metrics/endpoint';
import { watchDatabaseWrites } from './metrics/dbTiming';
import { alwaysLeader, electLeader, type LeaderDuties, type Leadership } from './cluster/leader';
import { connectRedis, type RedisLink } from './cluster/redis';
import { relayToLeader } from './cluster/relay';

const RAZORPAY_API = 'https://api.razorpay.com';
const RAZORPAY_TELEMETRY = 'https://lumberjack.razorpay.com';

/** The WebSocket origin of the public address: `https://x.in` → `wss://x.in`, `http://h:3000` → `ws://h:3000`. */
export function socketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

/**
 * The Content-Security-Policy directives. Scripts may connect to this origin only: 'self' and its WebSocket form
 * (PUBLIC_URL's, spelled out for browsers whose 'self' does not yet cover ws(s)), never any ws:/wss: host, so an
 * injected script cannot stream what it reads to a socket elsewhere. Razorpay's hosts are allowed only when
 * Razorpay keys are configured: the checkout script's origin (RAZORPAY_CHECKOUT_URL, checkout.razorpay.com unless
 * pointed at the fake) and the hosts its window talks to.
 */
export function cspDirectives(config: Pick<Config, 'razorpay' | 'publicUrl'>): Record<string, string[]> {
  const razorpay = config.razorpay !== undefined;
  const checkout = config.razorpay ? [new URL(config.razorpay.checkoutUrl).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...checkout],
    // Mantine injects its CSS variables and component styles through <style> elements at run time, which a
    // nonce cannot cover in a static SPA; inline styles cannot run code, so this is the accepted trade-off.
    'style-src': ["'self'", "'unsafe-inline'"],
    // data: for the UPI QR code images admins upload (stored as data URLs); blob: for chart snapshots.
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    // the push service worker (/sw.js); stated so a later script-src change cannot block it by accident
    'worker-src': ["'self'"],
    'connect-src': [
      "'self'",
      socketOrigin(config.publicUrl),
      ...(razorpay ? [RAZORPAY_API, RAZORPAY_TELEMETRY, ...checkout] : []),
    ],
    'frame-src': razorpay ? [RAZORPAY_API, ...checkout] : ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
}

/** The Koa application over ready dependencies. */
/** The Koa application's shared parts made once by startServer (tests may leave them to their defaults). */
export interface AppParts {
  brokers?: BrokerRegistry;
  paymentGateway?: PaymentGateway;
}

export function createApp(deps: Deps, startedAt = deps.clock.now(), parts: AppParts = {}): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = deps.config.trustProxy;
  app.silent = true; // errors are rendered and logged by errorRenderer; Koa's own stderr printing would duplicate them
  app.use(requestContext(deps.logger));
  app.use(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(deps.config) },
      referrerPolicy: { policy: 'no-referrer' },
      xFrameOptions: { action: 'deny' }, // same intent as frame-ancestors 'none', for browsers without CSP 2
      // HSTS when PUBLIC_URL is https: the operator's statement that people reach the site over TLS (directly or
      // through a TLS proxy; browsers ignore the header on plain HTTP). A plain-HTTP install on a LAN must not pin
      // itself, and a header the proxy could forge (X-Forwarded-Proto) does not decide a year-long pin.
      strictTransportSecurity: deps.config.publicUrl.startsWith('https://')
        ? { maxAge: 365 * 86_400, includeSubDomains: true }
        : false,
    }),
  );
  app.use(errorRenderer(deps.logger));
  // Before the API and the web app, which would answer /metrics with the SPA.
  app.use(metricsEndpoint(deps));
  app.use(requireJsonBody());
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: deps.config.bodyLimit,
      encoding: 'utf-8',
      // DELETE too: forgetting a push subscription names its endpoint in the body, never in a logged URL.
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    }),
  );
  const api = apiRouter(deps, startedAt, parts);
  app.use(answerOptions(api));
  app.use(api.routes());
  app.use(apiNotFound());
  app.use(webApp(deps.config.webDistDir));
  return app;
}

export interface StartOverrides {
  /** an open, migrated database owned by the caller (tests); closing the server leaves it open */
  db?: Database;
  logger?: Logger;
  clock?: Clock;
  limiter?: RateLimiter;
  /** replaces the SMTP mailer (tests); `null` forces test mode */
  mailer?: Mailer | null;
  /** the trading service's feed and clocks (tests drive a scripted feed on a virtual clock) */
  trading?: Pick<TradingServiceOptions, 'feed' | 'scheduler' | 'realtime'>;
  /** the notification channels instead of the configured ones (tests pass fakes) */
  notificationChannels?: NotificationChannel[];
  /** the HTTPS agent of the configured push channel (tests: one that trusts the fake push service's certificate) */
  pushAgent?: HttpsAgent;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: Deps;
  io: RealtimeServer;
  httpServer: HttpServer;
  /** stops accepting, disconnects sockets, closes the database; idempotent */
  close(): Promise<void>;
}

/** Opens and migrates the database, then listens on config.host:config.port (0 = any free port). */
export async function startServer(config: Config, overrides: StartOverrides = {}): Promise<RunningServer> {
  // main.ts checks this too (for a clean message); here it covers every other way of booting production.
  assertProductionReady(config);
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  const clock = overrides.clock ?? systemClock;
  const ownsDb = overrides.db === undefined;
  const db = overrides.db ?? openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  if (ownsDb) {
    try {
      await migrateLatest(db);
    } catch (err) {
      await closeDatabase(db);
      throw err;
    }
  }

  // Several nodes: rooms span processes through Redis, and so do the login and sign-up limits (cluster/redis.ts).
  const redis: RedisLink | undefined = config.redisUrl
    ? connectRedis({ url: config.redisUrl, prefix: config.redisPrefix, logger })
    : undefined;
  const io: RealtimeServer = new SocketServer({
    serveClient: false,
    ...(redis === undefined ? {} : { adapter: redis.adapter }),
  });
  // Whether this process runs the engine: the one process always; a node of several only while it holds the lock.
  const elected = config.nodeRole === 'engine' || (config.nodeRole === 'all' && redis !== undefined);
  let leadership: Leadership | undefined;
  // True from the moment this node starts its duties (the engine's start and the jobs it runs already act as the
  // leader's) until it resigns.
  let leading = false;
  const health = createHealthRegistry(['database']);
  health.register('database', async () => {
    const { status, detail, cause } = await checkDatabase(db);
    // The reason goes to the log only: /api/health is public, and a driver's message names hosts and users.
    if (cause !== undefined) logger.warn({ cause }, 'database health check failed');
    return { status, ...(detail === undefined ? {} : { detail }) };
  });
  const mailer =
    overrides.mailer !== undefined
      ? overrides.mailer
      : config.smtpUrl
        ? createSmtpMailer(config.smtpUrl, config.mailFrom)
        : null;
  const realtime = createRealtime(io);
  const metrics = createMetrics();
  const unwatchDatabase = watchDatabaseWrites(db.knex, metrics);
  // One registry for the routes and the runtime: Kite's postbacks reach the adapters the runtime trades through.
  const brokers = brokerRegistryFromConfig(config, () => clock.now());
  const trading = createTradingService({
    db,
    config,
    publisher: realtime,
    logger,
    health,
    clock,
    brokers,
    metrics,
    following: () => !leading,
    ...overrides.trading,
  });
  // Several nodes: what reaches a follower for the engine is relayed to the leader (cluster/relay.ts).
  const relayed = redis
    ? relayToLeader({ io, trading, realtime, isLeader: () => leading, logger })
    : { trading, realtime, stop: () => {} };
  const jwtKey = loadOrCreateJwtKey(config.dataDir, config.jwtSecret);
  const unsubscribe = createUnsubscribeLinks(jwtKey, clock, config.publicUrl);
  // Delivery runs beside the server, never inside a request or the engine: a dead channel cannot slow an order.
  const notifications = createNotificationSender({
    db: db.knex,
    logger,
    clock,
    channels:
      overrides.notificationChannels ??
      buildChannels(
        config,
        { config, db, logger, clock, realtime: relayed.realtime, trading: relayed.trading },
        overrides.pushAgent,
      ),
    render: (notice) => renderNotice({ db, config }, notice),
    unsubscribeUrlFor: unsubscribe.unsubscribeUrlFor,
  });
  const deps: Deps = {
    config,
    logger,
    db,
    clock,
    passwords: createPasswordHasher(),
    tokens: createTokenService(jwtKey, clock),
    limiter: overrides.limiter ?? redis?.limiter ?? createMemoryRateLimiter(clock),
    mailer,
    health,
    trading: relayed.trading,
    realtime: relayed.realtime,
    notifications,
    unsubscribe,
    metrics,
  };

  const paymentGateway = createPaymentGateway(config);
  const app = createApp(deps, clock.now(), { brokers, paymentGateway });
  const httpServer = createBoundedServer(app.callback(), config, logger);
  io.attach(httpServer);
  attachGateway({ io, deps });
  metrics.start({
    tickAgeMs: () => trading.lastTick().ageMs,
    socketsConnected: () => io.of('/').sockets.size,
    outboxPending: () => countPendingNotices(db.knex),
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;

  // The leader's work: the engine (restore → recover → resume exits → reconcile, in trading.start) and the jobs
  // that must run once per install, not once per node. A node that loses the lock stops them at once.
  let jobs: { stop(): void } | undefined;
  const duties: LeaderDuties = {
    async lead() {
      leading = true;
      await trading.start();
      // After the engine: notices recorded before a crash go out now, once (deliveries are claimed in the outbox,
      // so a node that lost the lock mid-attempt never sends one twice); the Telegram bot polls from here.
      notifications.start();
      jobs = startLeaderJobs(deps, paymentGateway);
    },
    async resign() {
      leading = false;
      jobs?.stop();
      jobs = undefined;
      // Side by side: the engine stops at once, while the sender gives a delivery in flight up to 5 s.
      await Promise.all([trading.stop(), notifications.pause()]);
    },
  };

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // The engine finishes its in-flight writes (and saves open positions' stops) while the database is open.
      await leadership?.stop();
      await trading.stop();
      await notifications.stop();
      // io.close() disconnects every socket and closes the http server; idle keep-alive connections would
      // otherwise hold the close open.
      await new Promise<void>((resolve) => {
        void io.close(() => resolve());
        httpServer.closeAllConnections();
      });
      relayed.stop();
      await redis?.close();
      mailer?.close();
      metrics.stop();
      unwatchDatabase();
      if (ownsDb) await closeDatabase(db);
    })());

  try {
    // Before the engine starts, so its first signal already finds the demo account (or its bot already off).
    await keepDemoAccount({ deps });
    if (config.nodeRole !== 'web') {
      leadership = elected
        ? await electLeader({ databaseUrl: config.databaseUrl ?? '', logger, duties })
        : await alwaysLeader(duties);
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { url, port, deps, io, httpServer, close };
}

/** The periodic jobs of the leader; `stop` ends them all. */
function startLeaderJobs(deps: Deps, gateway: PaymentGateway): { stop(): void } {
  const onUserChanged = (id: number) => deps.trading.onUserChanged(id);
  // Subscriptions end on their date: expired at start (work missed while down) and every minute after; the bot of
  // an expired subscriber takes no new entry, its open positions still run to their exits.
  const subscriptionJobs = startSubscriptionJobs({ deps, onUserChanged });
  const reconciliation = startOrderReconciliation({ deps, gateway, onUserChanged });
  // The daily summary (15:35 IST) and broker-session check (08:45 IST), caught up at start like the jobs above.
  const stopNotificationSchedule = startNotificationSchedule({
    db: deps.db.knex,
    clock: deps.clock,
    logger: deps.logger,
  });
  return {
    stop() {
      stopNotificationSchedule();
      subscriptionJobs.stop();
      reconciliation.stop();
    },
  };
}
