// Mounts every resource router under /api. Later resources (user, market, admin, payment, …) add one line here.
import { Router } from '@koa/router';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import type { AppState } from '../middleware/context';
import { adminSetupRouter } from './admin-setup/router';
import { authRouter } from './auth/router';
import { configRouter } from './config/router';
import { healthRouter } from './health/router';

/** The /api router: every resource, then a JSON 404 for anything else under /api. */
export function apiRouter(deps: Deps, startedAt: number): Router<AppState> {
  const api = new Router<AppState>({ prefix: '/api' });
  for (const resource of [
    authRouter(deps),
    adminSetupRouter(deps),
    healthRouter(deps, startedAt),
    configRouter(deps),
  ]) {
    api.use(resource.routes(), resource.allowedMethods());
  }
  api.all('/{*rest}', () => {
    throw new AppError('not_found', { message: 'No such API endpoint.' });
  });
  return api;
}
