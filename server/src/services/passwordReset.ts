// Password reset by e-mailed link. The token is 32 random bytes, stored only as its SHA-256, valid 30 minutes and
// usable once. The response never says whether an account exists — except in mail test mode (no SMTP_URL and
// RESET_LINK_IN_RESPONSE on, its default outside NODE_ENV=production), where the link is returned for existing
// accounts so the product can be tried without a mail server. In production without SMTP the answer is the same
// neutral message and an operator sets the password instead (`npm run set-password`).
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  PasswordResetRequestResponse,
  requestPasswordResetSchema,
  resetPasswordSchema,
} from '../contract';
import type { Deps, RequestMeta } from '../deps';
import { AppError } from '../errors';
import { sha256Hex } from '../crypto';
import {
  consumePasswordReset,
  createPasswordReset,
  findUserByEmail,
  invalidatePasswordResets,
  revokeAllSessionsForUser,
  updateUser,
} from '../db';
import { BUDGETS, clearBudget, clearLoginLockouts, takeBudgets } from '../auth/throttle';
import { announceAudit, recordAudit } from './audit';

export const RESET_TOKEN_TTL_MS = 30 * 60_000;

export const RESET_REQUESTED_MESSAGE =
  'If an account exists for this e-mail address, a password reset link has been sent to it.';

/** Issues a reset link for the e-mail's account, if there is one, and mails it (or, in test mode, returns it). */
export async function requestPasswordReset(props: {
  deps: Deps;
  input: z.output<typeof requestPasswordResetSchema>;
  meta: RequestMeta;
}): Promise<PasswordResetRequestResponse> {
  const { deps, input, meta } = props;
  await takeBudgets(deps.limiter, [
    [BUDGETS.resetRequestPerIp, meta.ip],
    [BUDGETS.resetRequestPerEmail, input.email],
  ]);

  const response: PasswordResetRequestResponse = { success: true, message: RESET_REQUESTED_MESSAGE };
  const user = await findUserByEmail(deps.db.knex, input.email);
  // The demo account takes no password (demo/account.ts): the same neutral answer, and no link.
  if (!user || user.disabled_at !== null || user.is_demo) return response;

  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const log = await deps.db.knex.transaction(async (trx) => {
    await createPasswordReset(
      trx,
      {
        user_id: user.id,
        token_hash: sha256Hex(token),
        expires_at: now + RESET_TOKEN_TTL_MS,
        requested_ip: meta.ip,
      },
      now,
    );
    return recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'auth',
        description: 'Password reset requested',
        userId: user.id,
        data: { ip: meta.ip },
      },
    });
  });
  announceAudit({ deps, rows: [log] });

  const resetLink = `${deps.config.publicUrl}/reset-password?token=${token}`;
  if (deps.mailer) {
    // Not awaited: an SMTP round trip only for existing accounts would let response time reveal which addresses
    // have an account. The caller learns nothing more than for an unknown address; the operator sees a failure.
    deps.mailer
      .send({
        to: user.email,
        subject: 'Reset your OptionPilot password',
        text:
          `Hello ${user.first_name},\n\nSomeone (hopefully you) asked to reset the password of your OptionPilot ` +
          `account. Open this link within 30 minutes to choose a new password:\n\n${resetLink}\n\n` +
          `If you did not ask for this, ignore this e-mail: your password stays as it is.\n`,
      })
      .catch((err: unknown) => {
        deps.logger.error(
          { err, userId: user.id, requestId: meta.requestId },
          'password reset e-mail failed',
        );
      });
    return response;
  }
  if (!deps.config.resetLinkInResponse) {
    // Production without a mail transport: nobody may receive the link, so it is neither logged nor returned.
    deps.logger.warn(
      { userId: user.id },
      'password reset requested but SMTP_URL is not set: no e-mail sent (an operator can run `npm run set-password`)',
    );
    return response;
  }
  // Test mode: the one log line allowed to carry a token, so a developer without SMTP can follow the link.
  deps.logger.warn({ userId: user.id, resetLink }, 'password reset link (test mode: SMTP_URL is not set)');
  return { ...response, resetLink };
}

/** Sets a new password with a reset token: single use, 30 minutes; ends every session of the account. */
export async function resetPassword(props: {
  deps: Deps;
  input: z.output<typeof resetPasswordSchema>;
  meta: RequestMeta;
}): Promise<{ success: true; message: string }> {
  const { deps, input, meta } = props;
  await takeBudgets(deps.limiter, [[BUDGETS.resetAttemptPerIp, meta.ip]]);

  // Hashed before the transaction: argon2 is slow and SQLite has one connection.
  const passwordHash = await deps.passwords.hash(input.newPassword);
  const now = deps.clock.now();
  const { userId, email, log } = await deps.db.knex.transaction(async (trx) => {
    const reset = await consumePasswordReset(trx, sha256Hex(input.token), now);
    if (!reset) throw new AppError('invalid_reset_token', { field: 'token' });
    const user = await updateUser(
      trx,
      reset.user_id,
      { password_hash: passwordHash, password_changed_at: now },
      now,
    );
    if (!user) throw new AppError('invalid_reset_token', { field: 'token' });
    await revokeAllSessionsForUser(trx, user.id, 'password_reset', { now });
    await invalidatePasswordResets(trx, user.id, now);
    const log = await recordAudit({
      db: trx,
      deps,
      entry: { type: 'auth', description: 'Password reset', userId: user.id, data: { ip: meta.ip } },
    });
    return { userId: user.id, email: user.email, log };
  });
  announceAudit({ deps, rows: [log] });
  // Whoever proved they own the mailbox is not kept out by someone else's wrong guesses.
  await clearLoginLockouts(deps.limiter, email);
  await clearBudget(deps.limiter, BUDGETS.passwordChangePerAccount, String(userId));
  await deps.realtime.endSessions({ userId, reason: 'password_reset' });
  return { success: true, message: 'Your password has been reset. Please sign in with your new password.' };
}
