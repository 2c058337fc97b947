// Subscriptions opened by an admin rather than a payment: Activate on a pending user (with the reason recorded),
// and the test account (paper trading on a demo period, flagged so revenue and counts leave it out).
import { randomBytes } from 'node:crypto';
import { generatePassword } from '../../auth/passwords';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import {
  findPlanByCode,
  insertSubscription,
  listPlans,
  saveTradingSettings,
  updateUser,
  type UserRow,
} from '../../db';
import { activateSubscription, effectiveSubscriptionStatus } from '../../payments/subscription';
import { announceAudit, recordAudit } from '../audit';
import { createUser } from '../users';
import { afterUserChange, type AdminDeps } from './userCommands';
import { flagTestAccount } from './testAccounts';
import { userOr404 } from './userDirectory';

const DAY_MS = 86_400_000;
export const TEST_USER_DAYS = 30;

/** `POST /api/admin/users/:id/activate`: opens the subscription of a user who has none running. */
export async function activateUser(props: {
  deps: AdminDeps;
  adminId: number;
  id: number;
  reason: string;
  planCode?: string | undefined;
}): Promise<UserRow> {
  const { deps, adminId, id, reason } = props;
  const db = deps.db.knex;
  const now = deps.clock.now();
  const current = await userOr404(db, id);
  if (current.is_admin) throw new AppError('admin_not_customer');
  if (effectiveSubscriptionStatus(current, now) === 'active') throw new AppError('already_active');
  const plan = props.planCode
    ? await findPlanByCode(db, props.planCode)
    : (await listPlans(db, { activeOnly: true }))[0];
  if (!plan)
    throw new AppError('validation_failed', {
      message: `planCode: no plan "${props.planCode ?? ''}"`,
      field: 'planCode',
    });
  const { user, log } = await db.transaction(async (trx) => {
    const { user } = await activateSubscription({
      db: trx,
      userId: id,
      plan,
      paymentId: null,
      source: 'admin',
      createdBy: adminId,
      now,
    });
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `Subscription of ${current.email} activated by an admin (${plan.name}): ${reason}`,
        userId: id,
        actorId: adminId,
        data: {
          reason,
          plan: plan.code,
          before: current.subscription_status,
          after: 'active',
          endsAt: user.subscription_end_at,
        },
      },
    });
    return { user, log };
  });
  announceAudit({ deps, rows: [log] });
  await afterUserChange(deps, user, { subscription: true });
  return user;
}

/** `POST /api/admin/create-test-user`: returns the user and its generated password (shown once). */
export async function createTestUser(props: {
  deps: AdminDeps & Pick<Deps, 'config'>;
  adminId: number;
  firstName?: string | undefined;
  lastName?: string | undefined;
  days?: number | undefined;
}): Promise<{ user: UserRow; password: string }> {
  const { deps, adminId } = props;
  const password = generatePassword();
  const passwordHash = await deps.passwords.hash(password);
  const now = deps.clock.now();
  const days = props.days ?? TEST_USER_DAYS;
  // `.test` is reserved (RFC 2606): mail to a test account can never reach a real person.
  const email = `test-${randomBytes(5).toString('hex')}@optionpilot.test`;
  const { user, log } = await deps.db.knex.transaction(async (trx) => {
    const created = await createUser({
      db: trx,
      now,
      user: {
        email,
        firstName: props.firstName ?? 'Test',
        lastName: props.lastName ?? 'Trader',
        passwordHash,
      },
    });
    await flagTestAccount(trx, { userId: created.id, createdBy: adminId, now });
    await saveTradingSettings(trx, created.id, { mode: 'paper' }, now);
    const endsAt = now + days * DAY_MS;
    await insertSubscription(
      trx,
      {
        user_id: created.id,
        plan_id: null,
        starts_at: now,
        ends_at: endsAt,
        source: 'trial',
        created_by: adminId,
      },
      now,
    );
    const user = await updateUser(
      trx,
      created.id,
      { subscription_status: 'active', subscription_start_at: now, subscription_end_at: endsAt },
      now,
    );
    if (!user) throw new Error('test user vanished');
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `Test user ${email} created (paper trading, ${days}-day demo subscription)`,
        userId: user.id,
        actorId: adminId,
        data: { days },
      },
    });
    return { user, log };
  });
  announceAudit({ deps, rows: [log] });
  await afterUserChange(deps, user);
  return { user, password };
}
