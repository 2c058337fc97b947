// Assembles the server: Koa (security headers, request ids, errors, body parsing, /api, the web app) and Socket.IO
// on one node http.Server. `startServer` is used by main.ts and by tests (port 0, temporary DATA_DIR).
import { createServer, type Server as HttpServer } from 'node:http';
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
import { buildChannels } from './notifications/channels';
import { renderNotice } from './notifications/render';
import { createNotificationSender } from './notifications/sender';
import type { NotificationChannel } from './notifications/types';
import { createUnsubscribeLinks } from './notifications/unsubscribe';

const RAZORPAY_API = 'https://api.razorpay.com';
const RAZORPAY_TELEMETRY = 'https://lumberjack.razorpay.com';

/**
 * The Content-Security-Policy directives; Razorpay's hosts are allowed only when Razorpay keys are configured:
 * the checkout script's origin (RAZORPAY_CHECKOUT_URL, checkout.razorpay.com unless pointed at the fake) and the
 * hosts its window talks to.
 */
export function cspDirectives(config: Pick<Config, 'razorpay'>): Record<string, string[]> {
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
      'ws:',
      'wss:',
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
      // HSTS only makes sense behind HTTPS; a plain-HTTP install on a LAN must not pin itself.
      strictTransportSecurity: deps.config.publicUrl.startsWith('https://'),
    }),
  );
  app.use(errorRenderer(deps.logger));
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

  const io: RealtimeServer = new SocketServer({ serveClient: false });
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
    ...overrides.trading,
  });
  const jwtKey = loadOrCreateJwtKey(config.dataDir, config.jwtSecret);
  const unsubscribe = createUnsubscribeLinks(jwtKey, clock, config.publicUrl);
  // Delivery runs beside the server, never inside a request or the engine: a dead channel cannot slow an order.
  const notifications = createNotificationSender({
    db: db.knex,
    logger,
    clock,
    channels:
      overrides.notificationChannels ??
      buildChannels(config, { config, db, logger, clock, realtime, trading }, overrides.pushAgent),
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
    limiter: overrides.limiter ?? createMemoryRateLimiter(clock),
    mailer,
    health,
    realtime,
    trading,
    notifications,
    unsubscribe,
  };

  const paymentGateway = createPaymentGateway(config);
  const app = createApp(deps, clock.now(), { brokers, paymentGateway });
  const httpServer = createServer(app.callback());
  io.attach(httpServer);
  attachGateway({ io, deps });

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

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // The engine finishes its in-flight writes (and saves open positions' stops) while the database is open.
      await trading.stop();
      await notifications.stop();
      // io.close() disconnects every socket and closes the http server; idle keep-alive connections would
      // otherwise hold the close open.
      await new Promise<void>((resolve) => {
        void io.close(() => resolve());
        httpServer.closeAllConnections();
      });
      mailer?.close();
      if (ownsDb) await closeDatabase(db);
    })());

  try {
    // Before the engine starts, so its first signal already finds the demo account (or its bot already off).
    await keepDemoAccount({ deps });
    await trading.start();
    // After the engine: notices recorded before a crash go out now, once.
    notifications.start();
  } catch (err) {
    await close();
    throw err;
  }
  // Subscriptions end on their date: expired at start (work missed while down) and every minute after; the bot of
  // an expired subscriber takes no new entry, its open positions still run to their exits.
  const subscriptionJobs = startSubscriptionJobs({ deps, onUserChanged: (id) => trading.onUserChanged(id) });
  const reconciliation = startOrderReconciliation({
    deps,
    gateway: paymentGateway,
    onUserChanged: (id) => trading.onUserChanged(id),
  });
  // The daily summary (15:35 IST) and broker-session check (08:45 IST), caught up at start like the jobs above.
  const stopNotificationSchedule = startNotificationSchedule({
    db: deps.db.knex,
    clock: deps.clock,
    logger: deps.logger,
  });
  const stopServer = close;
  const closeAll = () => {
    stopNotificationSchedule();
    subscriptionJobs.stop();
    reconciliation.stop();
    return stopServer();
  };
  return { url, port, deps, io, httpServer, close: closeAll };
}
