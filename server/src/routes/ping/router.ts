// GET /api/ping → `{ ok: true }`: no auth, no database, no work. It is the "bare route of the same server" that
// `npm run bench:live` measures beside `/api/user/stats`, so the difference is what the stats route itself costs
// (auth, session check, queries) on top of Koa's middleware stack. Also handy as a liveness probe.
import { Router } from '@koa/router';
import type { AppState } from '../../middleware/context';

/** Routes of the bare ping resource, mounted under /api. */
export function pingRouter(): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/ping', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ok: true };
  });
  return router;
}
