// GET /api/health: the database (a real query) and every registered subsystem. 503 when a critical one is down,
// so load balancers and `docker` health checks take the instance out of rotation.
import { Router } from '@koa/router';
import type { HealthResponse } from '../../contract';
import type { Deps } from '../../deps';
import type { AppState } from '../../middleware/context';

/** Routes of the health resource, mounted under /api. */
export function healthRouter(deps: Deps, startedAt: number): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/health', async (ctx) => {
    const { status, subsystems } = await deps.health.report();
    const now = deps.clock.now();
    const body: HealthResponse = {
      status,
      version: deps.config.version,
      uptimeSeconds: Math.max(0, Math.floor((now - startedAt) / 1000)),
      time: new Date(now).toISOString(),
      subsystems,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = status === 'down' ? 503 : 200;
    ctx.body = body;
  });
  return router;
}
