// /api/auth/*: sign-up, sign-in (user and admin), current user, sign-out, password change and reset.
import { Router } from '@koa/router';
import type { AuthResponse, PasswordResetRequestResponse, SuccessResponse, UserDto } from '../../contract';
import type { Deps } from '../../deps';
import { can, requireAuth } from '../../middleware/auth';
import { authOf, metaOf, type AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { changePassword, login, logout, register } from '../../services/auth';
import { requestPasswordReset, resetPassword } from '../../services/passwordReset';
import { userDto } from '../../services/users';
import {
  changePasswordSchema,
  loginSchema,
  registerSchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
} from './schema';

/** Routes of the auth resource, mounted under /api/auth. */
export function authRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/auth' });

  router.post(
    '/register',
    withBody(registerSchema, async (ctx, input) => {
      const { token, user } = await register({ deps, input, meta: metaOf(ctx) });
      const body: AuthResponse = {
        success: true,
        token,
        user: await userDto({ db: deps.db.knex, user, now: deps.clock.now() }),
        message: 'Account created',
      };
      ctx.status = 201;
      ctx.body = body;
    }),
  );

  router.post(
    '/login',
    withBody(loginSchema, async (ctx, input) => {
      const { token, user } = await login({ deps, input, meta: metaOf(ctx) });
      const body: AuthResponse = {
        success: true,
        token,
        user: await userDto({ db: deps.db.knex, user, now: deps.clock.now() }),
        message: 'Logged in successfully',
      };
      ctx.body = body;
    }),
  );

  router.post(
    '/admin-login',
    withBody(loginSchema, async (ctx, input) => {
      const { token, user } = await login({ deps, input, meta: metaOf(ctx), requireAdmin: true });
      const body: AuthResponse = {
        success: true,
        token,
        user: await userDto({ db: deps.db.knex, user, now: deps.clock.now() }),
        message: 'Admin login successful',
      };
      ctx.body = body;
    }),
  );

  router.get('/me', requireAuth(deps), can('session:read'), async (ctx) => {
    const body: UserDto = await userDto({ db: deps.db.knex, user: authOf(ctx).user, now: deps.clock.now() });
    ctx.body = body;
  });

  router.post('/logout', requireAuth(deps), can('session:end'), async (ctx) => {
    await logout({ deps, auth: authOf(ctx), meta: metaOf(ctx) });
    const body: SuccessResponse = { success: true, message: 'Logged out' };
    ctx.body = body;
  });

  router.post(
    '/change-password',
    requireAuth(deps),
    can('password:change'),
    withBody(changePasswordSchema, async (ctx, input) => {
      const { token, user } = await changePassword({ deps, auth: authOf(ctx), input, meta: metaOf(ctx) });
      const body: AuthResponse = {
        success: true,
        token,
        user: await userDto({ db: deps.db.knex, user, now: deps.clock.now() }),
        message: 'Password changed. Other devices have been signed out.',
      };
      ctx.body = body;
    }),
  );

  router.post(
    '/request-password-reset',
    withBody(requestPasswordResetSchema, async (ctx, input) => {
      const body: PasswordResetRequestResponse = await requestPasswordReset({
        deps,
        input,
        meta: metaOf(ctx),
      });
      ctx.body = body;
    }),
  );

  router.post(
    '/reset-password',
    withBody(resetPasswordSchema, async (ctx, input) => {
      const body: SuccessResponse = await resetPassword({ deps, input, meta: metaOf(ctx) });
      ctx.body = body;
    }),
  );

  return router;
}
