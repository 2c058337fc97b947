// Sign-up, sign-in, sign-out and password change. Each command: slow work (argon2) outside the transaction, one
// short transaction for the writes and the audit entry, then (after the commit) the token and socket events.
import type { z } from 'zod';
import type { changePasswordSchema, loginSchema, registerSchema } from '../contract';
import type { Deps, RequestMeta } from '../deps';
import { AppError } from '../errors';
import {
  findUserByEmail,
  invalidatePasswordResets,
  isUniqueViolation,
  revokeAllSessionsForUser,
  revokeSession,
  updateUser,
  type UserRow,
} from '../db';
import {
  BUDGETS,
  clearBudget,
  clearLoginFailuresAt,
  registerPerIp,
  takeBudgets,
  takeLoginBudgets,
} from '../auth/throttle';
import { announceAudit, recordAudit } from './audit';
import { openSession, signSession, type Authenticated } from './sessions';
import { createUser } from './users';

export interface SignedIn {
  token: string;
  user: UserRow;
}

/** Creates an account (subscription pending until payment) and signs it in. */
export async function register(props: {
  deps: Deps;
  input: z.output<typeof registerSchema>;
  meta: RequestMeta;
}): Promise<SignedIn> {
  const { deps, input, meta } = props;
  // Checked and charged before the (deliberately slow) hash, for every attempt: a script cannot use sign-up
  // to burn the server's CPU or fill the users table.
  if (deps.config.registerLimitPerIp > 0) {
    await takeBudgets(deps.limiter, [[registerPerIp(deps.config.registerLimitPerIp), meta.ip]]);
  }
  const passwordHash = await deps.passwords.hash(input.password);
  const now = deps.clock.now();
  try {
    const { user, session, log } = await deps.db.knex.transaction(async (trx) => {
      const user = await createUser({
        db: trx,
        now,
        user: {
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone,
          passwordHash,
        },
      });
      const session = await openSession({ db: trx, deps, userId: user.id, meta });
      const log = await recordAudit({
        db: trx,
        deps,
        entry: { type: 'auth', description: 'Account registered', userId: user.id, data: { ip: meta.ip } },
      });
      return { user, session, log };
    });
    announceAudit({ deps, rows: [log] });
    return { token: await signSession({ deps, userId: user.id, session }), user };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('email_taken', { field: 'email' });
    throw err;
  }
}

/**
 * Checks e-mail and password under attempt budgets per IP, per account × IP and per account (slower, and only for
 * addresses that used up their few attempts: `takeLoginBudgets`). The attempt is charged before the hash is checked and refunded when the password is right. Unknown e-mails cost the same
 * argon2 work as wrong passwords, and every refusal reads the same, so neither timing nor wording reveals an account.
 * `requireAdmin` (admin sign-in) refuses a correct non-admin login with 403, without opening a session.
 */
export async function login(props: {
  deps: Deps;
  input: z.output<typeof loginSchema>;
  meta: RequestMeta;
  requireAdmin?: boolean;
}): Promise<SignedIn> {
  const { deps, input, meta } = props;
  const charge = await takeLoginBudgets(deps.limiter, input.email, meta.ip);

  const user = await findUserByEmail(deps.db.knex, input.email);
  const passwordOk = user
    ? await deps.passwords.verify(user.password_hash, input.password)
    : (await deps.passwords.verifyDummy(input.password), false);
  // The demo account is never signed in, whatever password it might have been given (demo/account.ts).
  if (!user || !passwordOk || user.is_demo) {
    const log = await recordAudit({
      db: deps.db.knex,
      deps,
      entry: {
        type: 'auth',
        description: props.requireAdmin ? 'Admin sign-in failed' : 'Sign-in failed',
        userId: user?.id ?? null,
        data: { ip: meta.ip },
      },
    });
    announceAudit({ deps, rows: [log] });
    throw new AppError('invalid_credentials');
  }
  await charge.refund();
  await clearLoginFailuresAt(deps.limiter, input.email, meta.ip);
  if (user.disabled_at !== null) throw new AppError('account_disabled');
  if (props.requireAdmin && !user.is_admin) {
    throw new AppError('admin_required', {
      message: 'This account does not have admin access. Use the regular sign-in instead.',
    });
  }

  const { session, log } = await deps.db.knex.transaction(async (trx) => {
    const session = await openSession({ db: trx, deps, userId: user.id, meta });
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'auth',
        description: props.requireAdmin ? 'Admin signed in' : 'Signed in',
        userId: user.id,
        data: { ip: meta.ip },
      },
    });
    return { session, log };
  });
  announceAudit({ deps, rows: [log] });
  return { token: await signSession({ deps, userId: user.id, session }), user };
}

/** Revokes the caller's session and disconnects its sockets. */
export async function logout(props: { deps: Deps; auth: Authenticated; meta: RequestMeta }): Promise<void> {
  const { deps, auth, meta } = props;
  const now = deps.clock.now();
  const log = await deps.db.knex.transaction(async (trx) => {
    await revokeSession(trx, auth.session.id, 'logout', now);
    return recordAudit({
      db: trx,
      deps,
      entry: { type: 'auth', description: 'Signed out', userId: auth.user.id, data: { ip: meta.ip } },
    });
  });
  announceAudit({ deps, rows: [log] });
  await deps.realtime.endSessions({ userId: auth.user.id, sessionIds: [auth.session.id], reason: 'logout' });
}

/** Sets a new password after checking the current one, ends every session (and socket), opens a fresh one. */
export async function changePassword(props: {
  deps: Deps;
  auth: Authenticated;
  input: z.output<typeof changePasswordSchema>;
  meta: RequestMeta;
}): Promise<SignedIn> {
  const { deps, auth, input, meta } = props;
  // Whoever holds the token could otherwise guess the current password without limit (and then lock the owner out).
  // Charged before the (slow) verify so parallel guesses cannot all pass; cleared when the password is right.
  await takeBudgets(deps.limiter, [[BUDGETS.passwordChangePerAccount, String(auth.user.id)]]);
  if (!(await deps.passwords.verify(auth.user.password_hash, input.currentPassword))) {
    throw new AppError('wrong_password', { field: 'currentPassword' });
  }
  await clearBudget(deps.limiter, BUDGETS.passwordChangePerAccount, String(auth.user.id));
  const passwordHash = await deps.passwords.hash(input.newPassword);
  const now = deps.clock.now();
  const { user, session, log } = await deps.db.knex.transaction(async (trx) => {
    await revokeAllSessionsForUser(trx, auth.user.id, 'password_changed', { now });
    await invalidatePasswordResets(trx, auth.user.id, now);
    const user = await updateUser(
      trx,
      auth.user.id,
      { password_hash: passwordHash, password_changed_at: now },
      now,
    );
    if (!user) throw new AppError('session_expired');
    const session = await openSession({ db: trx, deps, userId: user.id, meta });
    const log = await recordAudit({
      db: trx,
      deps,
      entry: { type: 'auth', description: 'Password changed', userId: user.id, data: { ip: meta.ip } },
    });
    return { user, session, log };
  });
  announceAudit({ deps, rows: [log] });
  // The new session has no socket yet, so ending all of the user's sockets ends exactly the revoked sessions'.
  await deps.realtime.endSessions({ userId: user.id, reason: 'password_changed' });
  return { token: await signSession({ deps, userId: user.id, session }), user };
}
