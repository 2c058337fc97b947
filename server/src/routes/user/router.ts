// /api/user/*: the signed-in user's dashboard data (stats, trades, subscription, bot status — the polling fallback
// of the socket events) and their persisted controls (bot switch, trading settings, settings, broker credentials).
// Every route: auth → policy on the caller's own record → validate → handler; handlers only read the caller's rows.
import { Router } from '@koa/router';
import type {
  BotStatusDetailDto,
  BrokerConnectionDto,
  BrokerSaveResponse,
  SubscriptionDto,
  NotificationSettingsDto,
  TradeDto,
  TradingSettingsDto,
  UserSettingsDto,
  UserStatsDto,
} from '../../contract';
import { createSecretBox, loadOrCreateKey } from '../../crypto';
import {
  findBrokerAccountByUser,
  getTradingSettings,
  getUserSettings,
  listStrategies,
  listTrades,
} from '../../db';
import type { Deps } from '../../deps';
import { requireAuth } from '../../middleware/auth';
import { authOf, metaOf, type AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { subscriptionView } from '../../payments/subscription';
import { presentBrokerConnection } from '../../presenters/broker';
import { presentTrade } from '../../presenters/trade';
import { presentTradingSettings, presentUserSettings } from '../../presenters/settings';
import { brokerSummaryOf, presentUser } from '../../presenters/user';
import { canOnOwnRecord } from './access';
import { notificationSettingsFor, updateNotificationSettings } from '../../notifications/settingsService';
import { saveBroker, setBotSwitch, updateTradingSettings, updateUserSettings } from './commands';
import {
  botSwitchSchema,
  brokerCredentialsSchema,
  notificationSettingsSchema,
  parseQuery,
  tradesQuerySchema,
  tradingSettingsSchema,
  userSettingsSchema,
} from './schema';
import { niftyLotSize, type TradingHooks } from './tradingHooks';

export const BROKER_SAVED_MESSAGE =
  'Credentials saved securely. Press Connect to log in to your broker; trading continues on paper until you switch to Live.';

/** Routes of the user resource, mounted under /api/user. */
export function userRouter(deps: Deps, hooks: TradingHooks): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/user' });
  // Same key as every other sealed column: ENCRYPTION_KEY, else DATA_DIR/secrets/encryption.key (0600).
  const box = createSecretBox(loadOrCreateKey(deps.config.dataDir, deps.config.encryptionKey));
  const lotSize = (now: number) => (hooks.lotSize ?? niftyLotSize)(now);
  // 'user:read' / 'user:update' are owner-or-admin; every route below acts on the caller's own record (see access.ts).
  const own = [requireAuth(deps), canOnOwnRecord('user:read')] as const;
  const ownWrite = [requireAuth(deps), canOnOwnRecord('user:update')] as const;

  router.get('/stats', ...own, async (ctx) => {
    const body: UserStatsDto = await hooks.statsFor(authOf(ctx).user.id);
    ctx.body = body;
  });

  router.get('/trades', ...own, async (ctx) => {
    const query = parseQuery(tradesQuerySchema, ctx.query);
    const rows = await listTrades(deps.db.knex, {
      userId: authOf(ctx).user.id,
      limit: query.limit,
      ...(query.status ? { status: query.status } : {}),
    });
    const body: TradeDto[] = rows.map((row) =>
      presentTrade(row, row.status === 'open' ? (hooks.markPnl?.(row.id) ?? null) : null),
    );
    ctx.body = body;
  });

  router.get('/subscription', ...own, async (ctx) => {
    const body: SubscriptionDto = await subscriptionView({
      db: deps.db.knex,
      user: authOf(ctx).user,
      now: deps.clock.now(),
    });
    ctx.body = body;
  });

  router.get('/bot-status', ...own, async (ctx) => {
    const body: BotStatusDetailDto = await hooks.botStatus(authOf(ctx).user.id);
    ctx.body = body;
  });

  router.put(
    '/bot',
    ...ownWrite,
    withBody(botSwitchSchema, async (ctx, input) => {
      const userId = authOf(ctx).user.id;
      await setBotSwitch({ deps, hooks, userId, input, meta: metaOf(ctx) });
      const body: BotStatusDetailDto = await hooks.botStatus(userId);
      ctx.body = body;
    }),
  );

  router.get('/trading-settings', ...own, async (ctx) => {
    const now = deps.clock.now();
    const row = await getTradingSettings(deps.db.knex, authOf(ctx).user.id, now);
    const strategies = await listStrategies(deps.db.knex, { activeOnly: true });
    const body: TradingSettingsDto = presentTradingSettings(row, lotSize(now), strategies);
    ctx.body = body;
  });

  router.put(
    '/trading-settings',
    ...ownWrite,
    withBody(tradingSettingsSchema, async (ctx, input) => {
      const strategies = await listStrategies(deps.db.knex, { activeOnly: true });
      const row = await updateTradingSettings({
        deps,
        hooks,
        userId: authOf(ctx).user.id,
        input,
        strategies,
      });
      const body: TradingSettingsDto = presentTradingSettings(row, lotSize(deps.clock.now()), strategies);
      ctx.body = body;
    }),
  );

  router.get('/settings', ...own, async (ctx) => {
    const row = await getUserSettings(deps.db.knex, authOf(ctx).user.id, deps.clock.now());
    const body: UserSettingsDto = presentUserSettings(row);
    ctx.body = body;
  });

  router.put(
    '/settings',
    ...ownWrite,
    withBody(userSettingsSchema, async (ctx, input) => {
      const row = await updateUserSettings({ deps, hooks, userId: authOf(ctx).user.id, input });
      const body: UserSettingsDto = presentUserSettings(row);
      ctx.body = body;
    }),
  );

  // The per-event × per-channel table: trader events, admin events too for an admin; the server enforces it.
  router.get('/notifications', ...own, async (ctx) => {
    const body: NotificationSettingsDto = await notificationSettingsFor({
      db: deps.db.knex,
      user: authOf(ctx).user,
      available: deps.notifications.channelNames,
    });
    ctx.body = body;
  });

  router.put(
    '/notifications',
    ...ownWrite,
    withBody(notificationSettingsSchema, async (ctx, input) => {
      const body: NotificationSettingsDto = await updateNotificationSettings({
        db: deps.db.knex,
        user: authOf(ctx).user,
        input,
        available: deps.notifications.channelNames,
        now: deps.clock.now(),
      });
      ctx.body = body;
    }),
  );

  router.get('/broker', ...own, async (ctx) => {
    const row = await findBrokerAccountByUser(deps.db.knex, authOf(ctx).user.id);
    const body: BrokerConnectionDto | null = row
      ? presentBrokerConnection(row, { now: deps.clock.now(), publicUrl: deps.config.publicUrl })
      : null;
    // Koa turns a null body into 204 No Content; every response is JSON, so "no broker" is the JSON text `null`.
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(body);
  });

  router.post(
    '/broker',
    ...ownWrite,
    withBody(brokerCredentialsSchema, async (ctx, input) => {
      const { user } = authOf(ctx);
      const account = await saveBroker({ deps, hooks, box, userId: user.id, input, meta: metaOf(ctx) });
      const body: BrokerSaveResponse = {
        success: true,
        message: BROKER_SAVED_MESSAGE,
        broker: presentBrokerConnection(account, { now: deps.clock.now(), publicUrl: deps.config.publicUrl }),
        user: presentUser(user, brokerSummaryOf(account, deps.clock.now())),
      };
      ctx.body = body;
    }),
  );

  return router;
}
