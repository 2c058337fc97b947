// Overview and its tabs: stats, system health, controls (PUT one, pause/resume, flatten all), logs, signals and
// trades.
import type { ControlUpdateResponse, FlattenAllResponse } from '../../contract';
import {
  controlNameSchema,
  flattenAllSchema,
  logsQuerySchema,
  putControlSchema,
  signalsQuerySchema,
  tradesQuerySchema,
} from '../../contract';
import { validationError } from '../../errors';
import { withBody } from '../../middleware/validate';
import { listAdminControls } from '../../db';
import { listAdminLogs, listAdminSignals, listAdminTrades } from '../../services/admin/activity';
import { flattenAll, presentControl, updateControl } from '../../services/admin/controls';
import { adminStats } from '../../services/admin/overview';
import { systemHealth } from '../../services/admin/systemHealth';
import { adminIdOf, queryOf, type AdminEnv, type AdminRouter } from './shared';

export function registerOverviewRoutes(router: AdminRouter, env: AdminEnv): void {
  const { deps } = env;

  router.get('/stats', async (ctx) => {
    ctx.body = await adminStats({ deps, now: deps.clock.now() });
  });

  router.get('/system-health', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await systemHealth({ deps, now: deps.clock.now(), lag: env.lag.read() });
  });

  router.get('/controls', async (ctx) => {
    ctx.body = (await listAdminControls(deps.db.knex)).map(presentControl);
  });

  router.put(
    '/control/:settingName',
    withBody(putControlSchema, async (ctx, input) => {
      const name = controlNameSchema.safeParse(ctx.params.settingName);
      if (!name.success) throw validationError(name.error, 'settingName');
      const body: ControlUpdateResponse = await updateControl({
        deps,
        adminId: adminIdOf(ctx),
        name: name.data,
        value: input.value,
      });
      ctx.body = body;
    }),
  );

  for (const [path, value] of [
    ['/trading/pause', 'false'],
    ['/trading/resume', 'true'],
  ] as const) {
    router.post(path, async (ctx) => {
      const body: ControlUpdateResponse = await updateControl({
        deps,
        adminId: adminIdOf(ctx),
        name: 'tradingEnabled',
        value,
      });
      ctx.body = body;
    });
  }

  router.post(
    '/trading/flatten-all',
    withBody(flattenAllSchema, async (ctx) => {
      const closed = await flattenAll({ deps, adminId: adminIdOf(ctx) });
      const body: FlattenAllResponse = {
        success: true,
        message: `${closed} open position${closed === 1 ? '' : 's'} squared off`,
        closed,
      };
      ctx.body = body;
    }),
  );

  router.get('/logs', async (ctx) => {
    ctx.body = await listAdminLogs({
      db: deps.db.knex,
      query: queryOf(ctx, logsQuerySchema),
      now: deps.clock.now(),
    });
  });

  // Signals and trades are stamped on the market clock, logs on the server's: each period ("today", "this week")
  // is taken on the clock of the times it filters, the clock the admin pages label those times with.
  router.get('/signals', async (ctx) => {
    ctx.body = await listAdminSignals({
      db: deps.db.knex,
      query: queryOf(ctx, signalsQuerySchema),
      now: deps.trading.marketNow(),
    });
  });

  router.get('/trades', async (ctx) => {
    ctx.body = await listAdminTrades({
      db: deps.db.knex,
      query: queryOf(ctx, tradesQuerySchema),
      now: deps.trading.marketNow(),
      markPnl: (tradeId) => deps.trading.markPnl(tradeId),
    });
  });
}
