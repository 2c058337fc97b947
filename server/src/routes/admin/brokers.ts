// The Brokers page: status, accounts, force-disconnect and the connection test (test-fyers kept as the spec names it).
import type { SuccessResponse, TestBrokerResponse } from '../../contract';
import { brokersQuerySchema, testFyersSchema, userIdBodySchema } from '../../contract';
import { withBody } from '../../middleware/validate';
import {
  brokerStatus,
  forceDisconnect,
  fyersUserId,
  listBrokerAccountsPage,
  testBroker,
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
    '/test-fyers',
    withBody(testFyersSchema, async (ctx, input) => {
      const userId = await fyersUserId(deps, input.userId);
      const body: TestBrokerResponse = await testBroker({ deps, box, lookup: brokers, userId });
      ctx.body = body;
    }),
  );
}
