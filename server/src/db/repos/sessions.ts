import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { SessionRow } from '../rows';

const toSession = rowMapper<SessionRow>();

export interface NewSession {
  /** the JWT `jti` */
  id: string;
  user_id: number;
  expires_at: number;
  ip?: string | null;
  user_agent?: string | null;
}

export async function createSession(db: Db, session: NewSession, now = Date.now()): Promise<SessionRow> {
  const [row] = await db('sessions')
    .insert({ ...session, user_agent: session.user_agent?.slice(0, 512) ?? null, created_at: now })
    .returning('*');
  return toSession(row);
}

/** The session if it exists, is not revoked and has not expired at `now`. */
export async function findActiveSession(
  db: Db,
  id: string,
  now = Date.now(),
): Promise<SessionRow | undefined> {
  const row: unknown = await db('sessions')
    .where({ id })
    .whereNull('revoked_at')
    .where('expires_at', '>', now)
    .first();
  return row ? toSession(row) : undefined;
}

/** Revokes one session; false when it was unknown or already revoked. */
export async function revokeSession(db: Db, id: string, reason: string, now = Date.now()): Promise<boolean> {
  const changed = await db('sessions')
    .where({ id })
    .whereNull('revoked_at')
    .update({ revoked_at: now, revoked_reason: reason });
  return changed > 0;
}

/** Revokes every live session of a user (password change, admin action), optionally sparing one `jti`. */
export async function revokeAllSessionsForUser(
  db: Db,
  userId: number,
  reason: string,
  options: { exceptId?: string; now?: number } = {},
): Promise<number> {
  const query = db('sessions').where({ user_id: userId }).whereNull('revoked_at');
  if (options.exceptId !== undefined) query.whereNot({ id: options.exceptId });
  return query.update({ revoked_at: options.now ?? Date.now(), revoked_reason: reason });
}

/** Deletes sessions that expired before `olderThan` (housekeeping). */
export async function deleteExpiredSessions(db: Db, olderThan: number): Promise<number> {
  return db('sessions').where('expires_at', '<', olderThan).delete();
}
