// `requireAuth` reads the bearer token and resolves the live session (401 otherwise); `can(action)` then asks the
// policy table. Routes read: rate limit → requireAuth → can → withBody → handler.
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { authorize, type Action } from '../policies';
import { authenticateToken } from '../services/sessions';
import type { RouteMiddleware } from './context';

/** Bearer token of the Authorization header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** 401 unless the request carries a token of a live session; sets `ctx.state.auth`. */
export function requireAuth(deps: Deps): RouteMiddleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('authorization'));
    if (!token) throw new AppError('unauthenticated');
    ctx.state.auth = await authenticateToken({ deps, token });
    await next();
  };
}

/** 403 unless the policy allows the authenticated caller to do `action`. */
export function can(action: Action): RouteMiddleware {
  return async (ctx, next) => {
    const user = ctx.state.auth?.user;
    authorize(user ? { id: user.id, isAdmin: user.is_admin } : null, action);
    await next();
  };
}
