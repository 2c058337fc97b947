// The users page: list with summary, View, Edit, password, reset link, deactivate/reactivate, Activate, and the
// test user of the Brokers page.
import type {
  AdminUserDetailDto,
  AdminUserResponse,
  CreateTestUserResponse,
  PasswordResetRequestResponse,
  SuccessResponse,
} from '../../contract';
import {
  activateUserSchema,
  createTestUserSchema,
  patchUserSchema,
  setUserPasswordSchema,
  usersQuerySchema,
} from '../../contract';
import { AppError } from '../../errors';
import { metaOf } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { requestPasswordReset } from '../../services/passwordReset';
import { adminUsersOf, adminUserDetail, listAdminUsers, userOr404 } from '../../services/admin/userDirectory';
import { patchUser, setUserDisabled, setUserPassword } from '../../services/admin/userCommands';
import { activateUser, createTestUser } from '../../services/admin/subscriptionCommands';
import type { UserRow } from '../../db';
import { adminIdOf, pathId, queryOf, type AdminEnv, type AdminRouter } from './shared';

export function registerUserRoutes(router: AdminRouter, env: AdminEnv): void {
  const { deps, box } = env;
  const respond = async (user: UserRow, message: string): Promise<AdminUserResponse> => {
    const [dto] = await adminUsersOf(deps.db.knex, [user]);
    if (!dto) throw new AppError('not_found');
    return { success: true, message, user: dto };
  };

  router.get('/users', async (ctx) => {
    ctx.body = await listAdminUsers({
      db: deps.db.knex,
      query: queryOf(ctx, usersQuerySchema),
      now: deps.clock.now(),
    });
  });

  router.get('/users/:id', async (ctx) => {
    const body: AdminUserDetailDto = await adminUserDetail({
      db: deps.db.knex,
      id: pathId(ctx),
      now: deps.clock.now(),
    });
    ctx.body = body;
  });

  router.patch(
    '/users/:id',
    withBody(patchUserSchema, async (ctx, input) => {
      const user = await patchUser({ deps, box, adminId: adminIdOf(ctx), id: pathId(ctx), input });
      ctx.body = await respond(user, 'User updated');
    }),
  );

  router.post(
    '/users/:id/password',
    withBody(setUserPasswordSchema, async (ctx, input) => {
      await setUserPassword({
        deps,
        adminId: adminIdOf(ctx),
        id: pathId(ctx),
        newPassword: input.newPassword,
      });
      const body: SuccessResponse = {
        success: true,
        message: 'Password set. Every session of this user has been signed out.',
      };
      ctx.body = body;
    }),
  );

  router.post('/users/:id/send-reset-link', async (ctx) => {
    const user = await userOr404(deps.db.knex, pathId(ctx));
    if (user.disabled_at !== null)
      throw new AppError('account_disabled', {
        message: 'Reactivate this user before sending a reset link.',
      });
    const result = await requestPasswordReset({ deps, input: { email: user.email }, meta: metaOf(ctx) });
    const body: PasswordResetRequestResponse = {
      success: true,
      message: result.resetLink
        ? `Reset link created for ${user.email} (test mode: no mail server, so it is shown here).`
        : `A password reset link has been e-mailed to ${user.email}.`,
      ...(result.resetLink ? { resetLink: result.resetLink } : {}),
    };
    ctx.body = body;
  });

  for (const [path, disabled] of [
    ['/users/:id/deactivate', true],
    ['/users/:id/reactivate', false],
  ] as const) {
    router.post(path, async (ctx) => {
      const user = await setUserDisabled({
        deps,
        adminId: adminIdOf(ctx),
        id: pathId(ctx),
        disabled,
        meta: metaOf(ctx),
      });
      ctx.body = await respond(user, disabled ? 'User deactivated' : 'User reactivated');
    });
  }

  router.post(
    '/users/:id/activate',
    withBody(activateUserSchema, async (ctx, input) => {
      const user = await activateUser({
        deps,
        adminId: adminIdOf(ctx),
        id: pathId(ctx),
        reason: input.reason,
        planCode: input.planCode,
      });
      ctx.body = await respond(user, 'Subscription activated');
    }),
  );

  router.post(
    '/create-test-user',
    withBody(createTestUserSchema, async (ctx, input) => {
      const { user, password } = await createTestUser({ deps, adminId: adminIdOf(ctx), ...input });
      const base = await respond(user, '');
      const body: CreateTestUserResponse = {
        success: true,
        message: `Test user ${user.email} created: paper trading with an active demo subscription.`,
        user: base.user,
        password,
      };
      ctx.status = 201;
      ctx.body = body;
    }),
  );
}
