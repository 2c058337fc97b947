// /api/init-admin (only while no admin exists) and /api/make-admin (admins only).
import { Router } from '@koa/router';
import type { InitAdminResponse, SuccessResponse } from '../../contract';
import type { Deps } from '../../deps';
import { can, requireAuth } from '../../middleware/auth';
import { authOf, metaOf, type AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { initAdmin, makeAdmin } from '../../services/admins';
import { makeAdminSchema } from './schema';

/** Routes of the admin bootstrap, mounted under /api. */
export function adminSetupRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>();

  router.post('/init-admin', async (ctx) => {
    const { email, password } = await initAdmin({ deps, meta: metaOf(ctx) });
    const body: InitAdminResponse = {
      success: true,
      message: `Admin account ${email} created. Save this password now: it is shown only once.`,
      email,
      password,
    };
    ctx.status = 201;
    ctx.body = body;
  });

  router.post(
    '/make-admin',
    requireAuth(deps),
    can('user:promote'),
    withBody(makeAdminSchema, async (ctx, input) => {
      const { user: caller } = authOf(ctx);
      const { user, changed } = await makeAdmin({
        deps,
        actor: { id: caller.id, isAdmin: caller.is_admin },
        email: input.email,
        meta: metaOf(ctx),
      });
      const body: SuccessResponse = {
        success: true,
        message: changed ? `${user.email} is now an admin` : `${user.email} is already an admin`,
      };
      ctx.body = body;
    }),
  );

  return router;
}
