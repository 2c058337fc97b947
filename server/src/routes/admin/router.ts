// /api/admin/*: every admin call of spec §7 and the admin pages' own. One router, so one guard covers every route:
// no token → 401, a non-admin → 403 (policy 'admin:access'), before any handler or body validation runs.
import { Router } from '@koa/router';
import { createSecretBox, loadOrCreateKey } from '../../crypto';
import type { Deps } from '../../deps';
import { can, requireAuth } from '../../middleware/auth';
import type { AppState } from '../../middleware/context';
import type { PaymentGateway } from '../../payments/gateway';
import type { BrokerLookup } from '../../services/admin/brokers';
import { createLagMonitor } from '../../services/admin/systemHealth';
import { registerBrokerRoutes } from './brokers';
import { registerCatalogRoutes } from './catalog';
import { registerNotificationRoutes } from './notifications';
import { registerOverviewRoutes } from './overview';
import { registerPaymentRoutes } from './payments';
import { registerUserRoutes } from './users';

export interface AdminRouterOptions {
  /** live broker integrations by type (server/src/brokers registry); default: none installed */
  brokers?: BrokerLookup;
  /** Razorpay (live) or the test gateway: refunds of Razorpay payments go through it */
  paymentGateway: PaymentGateway;
}

/** Routes of the admin resource, mounted under /api/admin. */
export function adminRouter(deps: Deps, options: AdminRouterOptions): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/admin' });
  router.use(requireAuth(deps), can('admin:access'));
  const env = {
    deps,
    // Same key as every other sealed column: ENCRYPTION_KEY, else DATA_DIR/secrets/encryption.key (0600).
    box: createSecretBox(loadOrCreateKey(deps.config.dataDir, deps.config.encryptionKey)),
    lag: createLagMonitor(),
    brokers: options.brokers ?? (() => undefined),
    paymentGateway: options.paymentGateway,
  };
  registerOverviewRoutes(router, env);
  registerUserRoutes(router, env);
  registerPaymentRoutes(router, env);
  registerBrokerRoutes(router, env);
  registerCatalogRoutes(router, env);
  registerNotificationRoutes(router, env);
  return router;
}
