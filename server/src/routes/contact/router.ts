// POST /api/contact: the landing page's contact form. Stored for the admins (with the user id when the sender is
// signed in) and confirmed; rate-limited per IP because it is open to anyone.
import { Router } from '@koa/router';
import type { SuccessResponse } from '../../contract';
import type { Deps } from '../../deps';
import { bearerToken } from '../../middleware/auth';
import type { AppState, RouteMiddleware } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { submitContactMessage } from '../../services/contactMessages';
import { authenticateToken } from '../../services/sessions';
import { AppError } from '../../errors';
import { rateLimit } from '../user/access';
import { contactSchema } from './schema';

/** Five messages per IP per ten minutes: plenty for a person, useless for a spammer. */
export const CONTACT_BUDGET = { name: 'contact:ip', limit: 5, windowMs: 10 * 60_000 } as const;

export const CONTACT_CONFIRMATION = "Thanks for your message. We'll get back to you within one business day.";

/** Sets `ctx.state.auth` when the request carries a live session; a missing or stale token just means anonymous. */
function optionalAuth(deps: Deps): RouteMiddleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('authorization'));
    if (token) {
      try {
        ctx.state.auth = await authenticateToken({ deps, token });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    await next();
  };
}

/** Routes of the contact resource, mounted under /api. */
export function contactRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>();

  router.post(
    '/contact',
    rateLimit(deps, CONTACT_BUDGET, (ctx) => ctx.ip),
    optionalAuth(deps),
    withBody(contactSchema, async (ctx, input) => {
      await submitContactMessage({
        deps,
        message: {
          name: input.name,
          email: input.email,
          message: input.message,
          user_id: ctx.state.auth?.user.id ?? null,
        },
      });
      const body: SuccessResponse = { success: true, message: CONTACT_CONFIRMATION };
      ctx.body = body;
    }),
  );

  return router;
}
