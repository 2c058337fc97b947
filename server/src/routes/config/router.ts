// GET /api/config: the browser's view of the configuration — exactly `publicConfig`, nothing else.
import { Router } from '@koa/router';
import { publicConfig } from '../../config';
import type { Deps } from '../../deps';
import type { AppState } from '../../middleware/context';

/** Routes of the public configuration, mounted under /api. */
export function configRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/config', (ctx) => {
    ctx.body = publicConfig(deps.config);
  });
  return router;
}
