// Route guards shared by the user, payment and contact resources: "acts on the caller's own record" through the
// policy table, and attempt budgets per client. Every /api/user endpoint reads or writes only the caller's rows
// (no user id in any path), so the policy is asked about the caller's own record.
import { takeBudgets, type Budget } from '../../auth/throttle';
import type { Deps } from '../../deps';
import { authorize, type Action } from '../../policies';
import { authOf, type RouteContext, type RouteMiddleware } from '../../middleware/context';

/** 403 unless the policy lets the caller do `action` on their own record (401 without a caller). */
export function canOnOwnRecord(action: Action): RouteMiddleware {
  return async (ctx, next) => {
    const { user } = authOf(ctx);
    authorize({ id: user.id, isAdmin: user.is_admin }, action, { ownerId: user.id });
    await next();
  };
}

/** Counts one attempt against `budget` for the subject of the request; 429 with Retry-After once it is used up. */
export function rateLimit(
  deps: Pick<Deps, 'limiter'>,
  budget: Budget,
  subjectOf: (ctx: RouteContext) => string,
): RouteMiddleware {
  return async (ctx, next) => {
    await takeBudgets(deps.limiter, [[budget, subjectOf(ctx)]]);
    await next();
  };
}
