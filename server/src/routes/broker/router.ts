// The broker connection lifecycle and the Paper / Live switch: the public broker list (GET /api/brokers), Connect
// (POST /api/user/broker/connect), the login callback the web page /broker/{broker}/callback forwards
// (POST /api/user/broker/callback), a form login (POST /api/user/broker/login), resuming orders after an
// "IP not allowed" (POST /api/user/broker/resume), Disconnect (DELETE /api/user/broker/session) and GET/PUT
// /api/user/trading-mode. Every user route: auth → policy on the caller's own record → validate → handler.
import { Router } from '@koa/router';
import type {
  BrokerConnectResponse,
  BrokerSessionResponse,
  BrokersResponse,
  TradingModeDto,
} from '../../contract';
import {
  completeBrokerLogin,
  completeFormLogin,
  disconnectBroker,
  resumeAfterIpBlock,
  startBrokerLogin,
} from '../../brokers/connection';
import type { BrokerRegistry } from '../../brokers/registry';
import { setTradingMode, tradingModeOf } from '../../brokers/tradingMode';
import { createSecretBox, loadOrCreateKey } from '../../crypto';
import type { Deps } from '../../deps';
import { requireAuth } from '../../middleware/auth';
import { authOf, metaOf, type AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { presentBrokerConnection } from '../../presenters/broker';
import { canOnOwnRecord } from '../user/access';
import type { TradingHooks } from '../user/tradingHooks';
import {
  brokerCallbackSchema,
  brokerConnectSchema,
  brokerFormLoginSchema,
  brokerResumeSchema,
  tradingModeSchema,
} from './schema';

export const BROKER_CONNECTED_MESSAGE =
  'Broker Connected: your broker account is authenticated for today. Trading stays on Paper until you switch to Live.';
export const BROKER_DISCONNECTED_MESSAGE = 'Broker disconnected. Trading continues on paper.';
export const BROKER_RESUMED_MESSAGE =
  'Orders to your broker may go again. If the broker still refuses the IP, they stop again and the card says so.';

/** Routes of the broker connection, mounted under /api. */
export function brokerRouter(
  deps: Deps,
  options: { registry: BrokerRegistry; hooks: Pick<TradingHooks, 'onUserChanged' | 'botStatus'> },
): Router<AppState> {
  const router = new Router<AppState>();
  const box = createSecretBox(loadOrCreateKey(deps.config.dataDir, deps.config.encryptionKey));
  const c = { deps, registry: options.registry, box, hooks: options.hooks };
  const view = (row: Parameters<typeof presentBrokerConnection>[0]) =>
    presentBrokerConnection(row, { now: deps.clock.now(), publicUrl: deps.config.publicUrl });
  const own = [requireAuth(deps), canOnOwnRecord('user:read')] as const;
  const ownWrite = [requireAuth(deps), canOnOwnRecord('user:update')] as const;

  router.get('/brokers', (ctx) => {
    const body: BrokersResponse = {
      brokers: options.registry.offers(deps.config.publicUrl),
      egressIp: deps.config.egressIp ?? null,
    };
    ctx.body = body;
  });

  router.post(
    '/user/broker/connect',
    ...ownWrite,
    withBody(brokerConnectSchema, async (ctx) => {
      const { user, session } = authOf(ctx);
      const started = await startBrokerLogin(c, { userId: user.id, sessionId: session.id });
      const body: BrokerConnectResponse = {
        loginUrl: started.loginUrl,
        expiresAt: new Date(started.expiresAt).toISOString(),
      };
      ctx.body = body;
    }),
  );

  router.post(
    '/user/broker/callback',
    ...ownWrite,
    withBody(brokerCallbackSchema, async (ctx, input) => {
      const { user, session } = authOf(ctx);
      const row = await completeBrokerLogin(c, {
        userId: user.id,
        sessionId: session.id,
        broker: input.broker,
        query: input.query,
      });
      const body: BrokerSessionResponse = {
        success: true,
        message: BROKER_CONNECTED_MESSAGE,
        broker: view(row),
      };
      ctx.body = body;
    }),
  );

  router.post(
    '/user/broker/login',
    ...ownWrite,
    withBody(brokerFormLoginSchema, async (ctx, input) => {
      const row = await completeFormLogin(c, { userId: authOf(ctx).user.id, fields: input.fields });
      const body: BrokerSessionResponse = {
        success: true,
        message: BROKER_CONNECTED_MESSAGE,
        broker: view(row),
      };
      ctx.body = body;
    }),
  );

  router.post(
    '/user/broker/resume',
    ...ownWrite,
    withBody(brokerResumeSchema, async (ctx) => {
      const row = await resumeAfterIpBlock(c, { userId: authOf(ctx).user.id });
      const body: BrokerSessionResponse = {
        success: true,
        message: BROKER_RESUMED_MESSAGE,
        broker: view(row),
      };
      ctx.body = body;
    }),
  );

  router.delete('/user/broker/session', ...ownWrite, async (ctx) => {
    const row = await disconnectBroker(c, { userId: authOf(ctx).user.id });
    const body: BrokerSessionResponse = {
      success: true,
      message: BROKER_DISCONNECTED_MESSAGE,
      broker: view(row),
    };
    ctx.body = body;
  });

  router.get('/user/trading-mode', ...own, async (ctx) => {
    const body: TradingModeDto = await tradingModeOf(deps, options.hooks, authOf(ctx).user.id);
    ctx.body = body;
  });

  router.put(
    '/user/trading-mode',
    ...ownWrite,
    withBody(tradingModeSchema, async (ctx, input) => {
      const body: TradingModeDto = await setTradingMode({
        deps,
        hooks: options.hooks,
        userId: authOf(ctx).user.id,
        input,
        ip: metaOf(ctx).ip,
      });
      ctx.body = body;
    }),
  );

  return router;
}
