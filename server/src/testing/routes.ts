// The real /api routes, read from the router the app mounts (not a hand-kept list), so tests that must cover
// every route also cover the ones added later.
import { apiRouter } from '../routes';
import type { Deps } from '../deps';
import type { RouteMiddleware } from '../middleware/context';

export interface ApiRoute {
  method: string;
  /** the router's pattern, e.g. /api/admin/users/:id */
  pattern: string;
  /** the pattern with every parameter filled in, ready to request */
  path: string;
  /** the route's middleware chain, in order (validators carry their schema, see middleware/validate.ts) */
  stack: readonly RouteMiddleware[];
}

/** Every method × path the /api router answers (HEAD, implied by GET, left out). */
export function listApiRoutes(deps: Deps, sampleParam = '1'): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const layer of apiRouter(deps, deps.clock.now()).stack) {
    if (typeof layer.path !== 'string') continue;
    for (const method of layer.methods) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        pattern: layer.path,
        path: layer.path.replace(/:(\w+)/g, sampleParam),
        stack: layer.stack as RouteMiddleware[],
      });
    }
  }
  return routes;
}
