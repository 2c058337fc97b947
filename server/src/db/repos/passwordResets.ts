import type { Db } from '../knex';
import { countOf, rowMapper } from '../normalise';
import type { PasswordResetRow } from '../rows';

const toReset = rowMapper<PasswordResetRow>();

export interface NewPasswordReset {
  user_id: number;
  /** SHA-256 hex of the token (see `sha256Hex` in `../../crypto`) */
  token_hash: string;
  expires_at: number;
  requested_ip?: string | null;
}

export async function createPasswordReset(
  db: Db,
  reset: NewPasswordReset,
  now = Date.now(),
): Promise<PasswordResetRow> {
  const [row] = await db('password_resets')
    .insert({ ...reset, created_at: now })
    .returning('*');
  return toReset(row);
}

/**
 * Marks the reset used and returns it, only if it exists, is unused and has not expired at `now`. One UPDATE
 * statement decides, so two concurrent consumers cannot both succeed.
 */
export async function consumePasswordReset(
  db: Db,
  tokenHash: string,
  now = Date.now(),
): Promise<PasswordResetRow | undefined> {
  const [row] = await db('password_resets')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now })
    .returning('*');
  return row ? toReset(row) : undefined;
}

/** Voids a user's unused reset links (after a successful reset or a password change). */
export async function invalidatePasswordResets(db: Db, userId: number, now = Date.now()): Promise<number> {
  return db('password_resets').where({ user_id: userId }).whereNull('used_at').update({ used_at: now });
}

/** Number of resets requested for a user since `since` (rate limiting). */
export async function countRecentPasswordResets(db: Db, userId: number, since: number): Promise<number> {
  return countOf(
    await db('password_resets').where({ user_id: userId }).where('created_at', '>=', since).count({ n: '*' }),
  );
}
