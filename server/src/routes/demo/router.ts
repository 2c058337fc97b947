// GET /api/demo and /api/demo/candles: the visitors' demo dashboard (/test-dashboard), open to anyone without a
// sign-in. Read-only by construction: the router has GET routes only (any other method is the API's 404), and the demo
// account behind it never holds a session (sign-in, sessions and resets refuse `is_demo` users), so no write route
// can act for it. Only the demo account's own rows are read. Rate-limited per IP because it is public.
import { Router } from '@koa/router';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import type { AppState } from '../../middleware/context';
import { createDemoDashboard } from '../../demo/dashboard';
import { parseQuery } from '../user/schema';
import { rateLimit } from '../user/access';
import { demoCandlesQuerySchema } from './schema';

/** A page polling every 2 s uses 30 a minute: room for a few tabs behind one address, not for scraping. */
export const DEMO_BUDGET = { name: 'demo:ip', limit: 120, windowMs: 60_000 } as const;

/** Routes of the demo resource, mounted under /api. */
export function demoRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>();
  const dashboard = createDemoDashboard(deps);
  const limited = rateLimit(deps, DEMO_BUDGET, (ctx) => ctx.ip);

  router.get('/demo', limited, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await dashboard.snapshot();
  });

  router.get('/demo/candles', limited, (ctx) => {
    const query = parseQuery(demoCandlesQuerySchema, ctx.query);
    const candles = dashboard.candles(query.limit);
    if (candles === null) {
      throw new AppError('not_found', { message: 'The demo dashboard does not run on this server.' });
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = candles;
  });

  return router;
}
