// `npm run set-password`: an operator on the server sets a user's password, the way out when a trader is locked
// out and no mail transport is configured (in production, reset links are then neither e-mailed nor returned).
// Like a reset it ends every session of the account and voids pending reset links.
import {
  findUserByEmail,
  invalidatePasswordResets,
  revokeAllSessionsForUser,
  updateUser,
  type Database,
} from '../db';
import { generatePassword, type PasswordHasher } from '../auth/passwords';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { recordAudit } from './audit';

export interface OperatorPasswordResult {
  email: string;
  /** sessions ended (the user must sign in again everywhere) */
  revokedSessions: number;
  /** set when no password was given: shown to the operator once, never stored in clear */
  generatedPassword?: string;
}

/** Sets the password of the account with `email` (a generated one when `password` is absent). */
export async function setPasswordByOperator(props: {
  db: Database;
  passwords: PasswordHasher;
  clock: Clock;
  email: string;
  password?: string;
}): Promise<OperatorPasswordResult> {
  const { db, clock, email } = props;
  const user = await findUserByEmail(db.knex, email);
  if (!user) throw new AppError('user_not_found');
  const generatedPassword = props.password === undefined ? generatePassword() : undefined;
  // Hashed before the transaction: argon2 is slow and SQLite has one connection.
  const passwordHash = await props.passwords.hash(props.password ?? generatedPassword ?? '');
  const now = clock.now();
  const revokedSessions = await db.knex.transaction(async (trx) => {
    const revoked = await revokeAllSessionsForUser(trx, user.id, 'password_set_by_operator', { now });
    await invalidatePasswordResets(trx, user.id, now);
    await updateUser(trx, user.id, { password_hash: passwordHash, password_changed_at: now }, now);
    await recordAudit({
      db: trx,
      deps: { clock },
      entry: { type: 'admin', description: 'Password set by an operator', userId: user.id },
    });
    return revoked;
  });
  return {
    email: user.email,
    revokedSessions,
    ...(generatedPassword === undefined ? {} : { generatedPassword }),
  };
}
