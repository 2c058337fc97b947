// GET /api/strategy: the white-box description of the strategy the caller follows (rules in words with the
// parameters the runtime uses now), for every signed-in user (SEBI: the logic of a white-box algo is disclosed to
// its users).
import { Router } from '@koa/router';
import type { Deps } from '../../deps';
import { can, requireAuth } from '../../middleware/auth';
import { authOf, type AppState } from '../../middleware/context';

/** Routes of the strategy resource, mounted under /api. */
export function strategyRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/strategy', requireAuth(deps), can('strategy:read'), async (ctx) => {
    ctx.body = await deps.trading.strategyInfo(authOf(ctx).user.id);
  });
  return router;
}
