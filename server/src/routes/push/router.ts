// Browser push: the server's VAPID public key (public: it is what browsers subscribe with) and the signed-in
// user's browser subscriptions. Subscriptions are written and removed only; they are never read back over the API
// (endpoint and keys are private to that browser and the push channel).
import { Router } from '@koa/router';
import type { VapidPublicKeyDto } from '../../contract';
import type { Deps } from '../../deps';
import { requireAuth } from '../../middleware/auth';
import { authOf, metaOf, type AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { deletePushSubscription, savePushSubscription } from '../../notifications/channels/pushSubscriptions';
import { loadOrCreateVapidKeys } from '../../notifications/channels/vapidKeys';
import { canOnOwnRecord } from '../user/access';
import { pushSubscriptionSchema, pushUnsubscribeSchema } from './schema';

/** Routes of the push resource, mounted under /api. */
export function pushRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>();
  const { publicKey } = loadOrCreateVapidKeys(deps.config.dataDir);
  // Loopback push services exist only in development and tests (the fake); production sends to public hosts.
  const subscriptionSchema = pushSubscriptionSchema(deps.config.nodeEnv !== 'production');
  const ownWrite = [requireAuth(deps), canOnOwnRecord('user:update')] as const;

  router.get('/push/vapid-public-key', async (ctx) => {
    const body: VapidPublicKeyDto = { publicKey };
    ctx.body = body;
  });

  router.post(
    '/user/push/subscriptions',
    ...ownWrite,
    withBody(subscriptionSchema, async (ctx, input) => {
      await savePushSubscription(deps.db.knex, {
        userId: authOf(ctx).user.id,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        userAgent: metaOf(ctx).userAgent?.slice(0, 300) ?? null,
        now: deps.clock.now(),
      });
      ctx.status = 204;
    }),
  );

  router.delete(
    '/user/push/subscriptions',
    ...ownWrite,
    withBody(pushUnsubscribeSchema, async (ctx, input) => {
      // Idempotent: forgetting a browser that is already forgotten (or never was) is not an error.
      await deletePushSubscription(deps.db.knex, authOf(ctx).user.id, input.endpoint);
      ctx.status = 204;
    }),
  );

  return router;
}
