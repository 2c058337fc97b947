// What admins change on a user (spec §6, made safe by decisions.md): profile, subscription and payment details,
// broker credentials (sealed, never shown back), a new password or a reset link (never the stored password), and
// deactivation. Each change is one short transaction with an audit entry naming the fields before → after
// (secrets only as "replaced"); sockets and the trading runtime hear of it after the commit.
import type { z } from 'zod';
import type { patchUserSchema } from '../../contract';
import type { RequestMeta, Deps } from '../../deps';
import { AppError } from '../../errors';
import { last4, type SecretBox } from '../../crypto';
import {
  findBrokerAccountByUser,
  findUserById,
  planOrFirstOnSale,
  type Db,
  invalidatePasswordResets,
  isUniqueViolation,
  revokeAllSessionsForUser,
  saveBrokerCredentials,
  updateUser,
  type LogRow,
  type UserPatch,
  type UserRow,
} from '../../db';
import { recordVerifiedPayment } from '../../payments/record';
import { subscriptionView } from '../../payments/subscription';
import { announceAudit, recordAudit } from '../audit';
import { userOr404 } from './userDirectory';

export type AdminDeps = Pick<
  Deps,
  'db' | 'clock' | 'logger' | 'realtime' | 'trading' | 'passwords' | 'config'
>;

/** Same rule as the trader's own form: keys this short keep no visible part. */
const MIN_KEY_LENGTH_FOR_LAST4 = 9;

/** After a committed change: tell the runtime and the user's dashboard (failures are logged, not thrown). */
export async function afterUserChange(
  deps: AdminDeps,
  user: UserRow,
  options: { subscription?: boolean } = {},
): Promise<void> {
  if (options.subscription) {
    const now = deps.clock.now();
    deps.realtime.toUser(
      user.id,
      'user:subscription',
      await subscriptionView({ db: deps.db.knex, user, now }),
    );
  }
  try {
    await deps.trading.onUserChanged(user.id);
  } catch (err) {
    deps.logger.error({ err, userId: user.id }, 'trading refresh after an admin change failed');
  }
}

type PaymentDetailsInput = NonNullable<z.output<typeof patchUserSchema>['paymentDetails']>;

/**
 * A payment the admin received outside the gateway (UPI, bank transfer), recorded like every verified payment:
 * payment row, subscription extended by the plan, GST invoice. Idempotent per UTR for the same user; a UTR of
 * another user is refused. Returns the payment's audit row, or null when it was recorded before.
 */
async function recordManualPayment(
  trx: Db,
  props: {
    deps: AdminDeps;
    adminId: number;
    userId: number;
    details: PaymentDetailsInput;
    changes: Record<string, unknown>;
  },
): Promise<LogRow | null> {
  const { deps, adminId, userId, details } = props;
  const existing = (await trx('payments').where({ utr: details.utrNumber }).first()) as
    { user_id: number } | undefined;
  if (existing && Number(existing.user_id) !== userId)
    throw new AppError('utr_used', { field: 'paymentDetails.utrNumber' });
  if (existing) return null;
  const plan = await planOrFirstOnSale(trx, null);
  const recorded = await recordVerifiedPayment({
    trx,
    deps,
    userId,
    method: details.paymentMethod,
    amountPaise: details.amountPaise,
    planId: plan.id,
    utr: details.utrNumber,
    paidAt: Date.parse(details.paymentDate),
    actor: { userId: adminId, source: 'admin' },
  });
  props.changes.paymentDetails = `recorded ${details.paymentMethod} ${details.utrNumber} of ${details.amountPaise} paise, invoice ${recorded.invoice.number}`;
  return recorded.log;
}

const ms = (isoText: string | null | undefined): number | null | undefined =>
  isoText === undefined ? undefined : isoText === null ? null : Date.parse(isoText);

/** `PATCH /api/admin/users/:id` */
export async function patchUser(props: {
  deps: AdminDeps;
  box: SecretBox;
  adminId: number;
  id: number;
  input: z.output<typeof patchUserSchema>;
}): Promise<UserRow> {
  const { deps, box, adminId, id, input } = props;
  const db = deps.db.knex;
  const current = await userOr404(db, id);
  const account = await findBrokerAccountByUser(db, id);
  const replacingKeys = input.brokerApiKey !== undefined && input.brokerApiSecret !== undefined;
  if (input.brokerType !== undefined && !replacingKeys && input.brokerType !== account?.broker_type)
    throw new AppError('validation_failed', {
      message: 'brokerApiKey: send the new broker API key and secret with a new brokerType',
      field: 'brokerApiKey',
    });
  const brokerType = input.brokerType ?? account?.broker_type;
  if (replacingKeys && brokerType === undefined)
    throw new AppError('validation_failed', {
      message: 'brokerType: choose the broker',
      field: 'brokerType',
    });

  const patch: UserPatch = {};
  const changes: Record<string, string | null> = {};
  const note = (field: string, before: string | number | null, after: string | number | null) => {
    if (before !== after) changes[field] = `${before ?? '(none)'} → ${after ?? '(none)'}`;
  };
  if (input.firstName !== undefined) {
    patch.first_name = input.firstName;
    note('firstName', current.first_name, input.firstName);
  }
  if (input.lastName !== undefined) {
    patch.last_name = input.lastName;
    note('lastName', current.last_name, input.lastName);
  }
  if (input.email !== undefined) {
    patch.email = input.email;
    note('email', current.email, input.email);
  }
  if (input.phone !== undefined) {
    patch.phone = input.phone;
    note('phone', current.phone, input.phone);
  }
  if (input.subscriptionStatus !== undefined) {
    patch.subscription_status = input.subscriptionStatus;
    note('subscriptionStatus', current.subscription_status, input.subscriptionStatus);
  }
  const start = ms(input.subscriptionStartDate);
  if (start !== undefined) {
    patch.subscription_start_at = start;
    note('subscriptionStartDate', current.subscription_start_at, start);
  }
  const end = ms(input.subscriptionEndDate);
  if (end !== undefined) {
    patch.subscription_end_at = end;
    note('subscriptionEndDate', current.subscription_end_at, end);
  }
  const startAt = patch.subscription_start_at ?? current.subscription_start_at;
  const endAt = patch.subscription_end_at ?? current.subscription_end_at;
  if (startAt !== null && endAt !== null && endAt <= startAt)
    throw new AppError('validation_failed', {
      message: 'subscriptionEndDate: must be after subscriptionStartDate',
      field: 'subscriptionEndDate',
    });

  const now = deps.clock.now();
  let result: { user: UserRow; log: LogRow; paymentLog: LogRow | null };
  try {
    result = await db.transaction(async (trx) => {
      // A payment first: it extends the subscription like any verified payment (and issues the GST invoice);
      // dates the admin typed in the same edit are applied after it, so they win.
      const paymentLog = input.paymentDetails
        ? await recordManualPayment(trx, {
            deps,
            adminId,
            userId: id,
            details: input.paymentDetails,
            changes,
          })
        : null;
      const user =
        Object.keys(patch).length > 0 ? await updateUser(trx, id, patch, now) : await findUserById(trx, id);
      if (!user) throw new AppError('not_found');
      if (replacingKeys && brokerType !== undefined && input.brokerApiKey && input.brokerApiSecret) {
        await saveBrokerCredentials(
          trx,
          id,
          {
            broker_type: brokerType,
            api_key_enc: box.seal(input.brokerApiKey),
            api_secret_enc: box.seal(input.brokerApiSecret),
            api_key_last4:
              input.brokerApiKey.length >= MIN_KEY_LENGTH_FOR_LAST4 ? last4(input.brokerApiKey) : '',
          },
          now,
        );
        changes.broker = `${account?.broker_type ?? '(none)'} → ${brokerType}, credentials replaced`;
      }
      const log = await recordAudit({
        db: trx,
        deps,
        entry: {
          type: 'admin',
          description: `User ${current.email} edited: ${Object.keys(changes).join(', ') || 'no change'}`,
          userId: id,
          actorId: adminId,
          data: changes,
        },
      });
      return { user, log, paymentLog };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('email_taken', { field: 'email' });
    throw err;
  }
  announceAudit({ deps, rows: result.paymentLog ? [result.paymentLog, result.log] : [result.log] });
  const subscriptionChanged = [
    'subscriptionStatus',
    'subscriptionStartDate',
    'subscriptionEndDate',
    'paymentDetails',
  ].some((f) => f in changes);
  await afterUserChange(deps, result.user, { subscription: subscriptionChanged });
  return result.user;
}

/** `POST /api/admin/users/:id/password`: sets it and ends every session and socket of the user. */
export async function setUserPassword(props: {
  deps: AdminDeps;
  adminId: number;
  id: number;
  newPassword: string;
}): Promise<void> {
  const { deps, adminId, id } = props;
  const db = deps.db.knex;
  const user = await userOr404(db, id);
  // Hashed before the transaction: argon2 is slow and SQLite has one connection.
  const hash = await deps.passwords.hash(props.newPassword);
  const now = deps.clock.now();
  const log = await db.transaction(async (trx) => {
    await updateUser(trx, id, { password_hash: hash, password_changed_at: now }, now);
    await revokeAllSessionsForUser(trx, id, 'password_set_by_admin', { now });
    await invalidatePasswordResets(trx, id, now);
    return recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'auth',
        description: `Password of ${user.email} set by an admin`,
        userId: id,
        actorId: adminId,
      },
    });
  });
  announceAudit({ deps, rows: [log] });
  await deps.realtime.endSessions({ userId: id, reason: 'password_changed' });
}

/** Deactivate (no sign-in, sessions ended, bot stopped) or reactivate a user. */
export async function setUserDisabled(props: {
  deps: AdminDeps;
  adminId: number;
  id: number;
  disabled: boolean;
  meta: RequestMeta;
}): Promise<UserRow> {
  const { deps, adminId, id, disabled } = props;
  if (disabled && id === adminId)
    throw new AppError('validation_failed', {
      message: 'You cannot deactivate your own account.',
      field: 'id',
    });
  const db = deps.db.knex;
  const current = await userOr404(db, id);
  const now = deps.clock.now();
  const { user, log } = await db.transaction(async (trx) => {
    const user = await updateUser(trx, id, { disabled_at: disabled ? now : null }, now);
    if (!user) throw new AppError('not_found');
    if (disabled) await revokeAllSessionsForUser(trx, id, 'deactivated', { now });
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `User ${current.email} ${disabled ? 'deactivated' : 'reactivated'}`,
        userId: id,
        actorId: adminId,
        data: {
          before: current.disabled_at === null ? 'active' : 'deactivated',
          after: disabled ? 'deactivated' : 'active',
          ip: props.meta.ip,
        },
      },
    });
    return { user, log };
  });
  announceAudit({ deps, rows: [log] });
  if (disabled) await deps.realtime.endSessions({ userId: id, reason: 'deactivated' });
  await afterUserChange(deps, user);
  return user;
}
