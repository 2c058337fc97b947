// The Brokers page: status, accounts, force-disconnect, a user's broker test, and each registered broker's
// connection test (test-fyers kept as the spec names it: the same test for Fyers).
import type { SuccessResponse, TestBrokerResponse } from '../../contract';
import {
  brokersQuerySchema,
  brokerTypeParamSchema,
  testBrokerConnectionSchema,
  userIdBodySchema,
} from '../../contract';
import { validationError } from '../../errors';
import { withBody } from '../../middleware/validate';
import {
  brokerStatus,
  forceDisconnect,
  listBrokerAccountsPage,
  testBroker,
  testBrokerConnection,
} from '../../services/admin/brokers';
import { adminIdOf, queryOf, type AdminEnv, type AdminRouter } from './shared';

export function registerBrokerRoutes(router: AdminRouter, env: AdminEnv): void {
  const { deps, box, brokers } = env;

  router.get('/broker-status', async (ctx) => {
    ctx.body = await brokerStatus({ deps, now: deps.clock.now() });
  });

  router.get('/brokers', async (ctx) => {
    ctx.body = await listBrokerAccountsPage({ deps, query: queryOf(ctx, brokersQuerySchema) });
  });

  router.post(
    '/force-broker-disconnect',
    withBody(userIdBodySchema, async (ctx, input) => {
      const message = await forceDisconnect({ deps, adminId: adminIdOf(ctx), userId: input.userId });
      const body: SuccessResponse = { success: true, message };
      ctx.body = body;
    }),
  );

  router.post(
    '/test-broker',
    withBody(userIdBodySchema, async (ctx, input) => {
      const body: TestBrokerResponse = await testBroker({ deps, box, lookup: brokers, userId: input.userId });
      ctx.body = body;
    }),
  );

  router.post(
    '/brokers/:type/test',
    withBody(testBrokerConnectionSchema, async (ctx, input) => {
      const type = brokerTypeParamSchema.safeParse(ctx.params.type);
      if (!type.success) throw validationError(type.error, 'type');
      const body: TestBrokerResponse = await testBrokerConnection({
        deps,
        box,
        lookup: brokers,
        type: type.data,
        ...(input.userId === undefined ? {} : { userId: input.userId }),
      });
      ctx.body = body;
    }),
  );

  router.post(
    '/test-fyers',
    withBody(testBrokerConnectionSchema, async (ctx, input) => {
      const body: TestBrokerResponse = await testBrokerConnection({
        deps,
        box,
        lookup: brokers,
        type: 'fyers',
        ...(input.userId === undefined ? {} : { userId: input.userId }),
      });
      ctx.body = body;
    }),
  );
}
