// Mounts every resource router under /api. Later resources (user, market, admin, payment, …) add one line here.
import { Router } from '@koa/router';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import type { Middleware } from 'koa';
import type { AppState } from '../middleware/context';
import { adminSetupRouter } from './admin-setup/router';
import { authRouter } from './auth/router';
import { plansRouter } from './plans/router';
import { configRouter } from './config/router';
import { healthRouter } from './health/router';
import { contactRouter } from './contact/router';
import { paymentRouter } from './payment/router';
import { pingRouter } from './ping/router';
import { userRouter } from './user/router';
import type { TradingHooks } from './user/tradingHooks';
import { marketRouter } from './market/router';
import { strategyRouter } from './strategy/router';
import { adminRouter } from './admin/router';
import { upiRouter } from './upi/router';
import { createPaymentGateway, type PaymentGateway } from '../payments/gateway';
import { brokerPostbacksRouter } from './broker-postbacks/router';
import { brokerRouter } from './broker/router';
import { demoRouter } from './demo/router';
import { legalRouter } from './legal/router';
import { notificationsRouter } from './notifications/router';
import { pushRouter } from './push/router';
import { telegramRouter } from './telegram/router';
import { brokerRegistryFromConfig, type BrokerRegistry } from '../brokers/registry';

/** Services the routers use that app.ts may supply; the defaults work without them. */
export interface ApiOptions {
  /** the trading service (`botStatus`, `onUserChanged`); default: the engine's service, `deps.trading` */
  trading?: TradingHooks;
  /** default: Razorpay when RAZORPAY_KEY_ID/SECRET are set, else payment test mode */
  paymentGateway?: PaymentGateway;
  /** the broker modules that exist; default: BROKER_DEFINITIONS built from the `<BROKER>_*` configuration */
  brokers?: BrokerRegistry;
}

/** The /api router: every resource. */
export function apiRouter(deps: Deps, startedAt: number, options: ApiOptions = {}): Router<AppState> {
  const api = new Router<AppState>({ prefix: '/api' });
  const trading = options.trading ?? deps.trading;
  // One registry for the connection routes and the postbacks: a postback reaches the module whose adapters
  // register with it.
  const registry = options.brokers ?? brokerRegistryFromConfig(deps.config, () => deps.clock.now());
  const paymentGateway = options.paymentGateway ?? createPaymentGateway(deps.config);
  for (const resource of [
    authRouter(deps),
    adminSetupRouter(deps),
    healthRouter(deps, startedAt),
    configRouter(deps),
    plansRouter(deps),
    userRouter(deps, trading),
    paymentRouter(deps, paymentGateway, trading),
    contactRouter(deps),
    marketRouter(deps),
    strategyRouter(deps),
    adminRouter(deps, { brokers: (type) => registry.get(type), paymentGateway }),
    upiRouter(deps),
    pingRouter(),
    brokerPostbacksRouter((type) => registry.get(type)),
    brokerRouter(deps, { registry, hooks: trading }),
    demoRouter(deps),
    legalRouter(deps),
    notificationsRouter(deps),
    pushRouter(deps),
    telegramRouter(deps),
  ]) {
    api.use(resource.routes(), resource.allowedMethods());
  }
  return api;
}

/** Anything under /api that no route answered is a JSON 404 (never the web app's HTML). */
export function apiNotFound(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/api' && !ctx.path.startsWith('/api/')) return next();
    throw new AppError('not_found', { message: `No API endpoint ${ctx.method} ${ctx.path}.` });
  };
}
