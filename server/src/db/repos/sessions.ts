import { selectRows, type Db } from '../knex';
import { rowMapper } from '../normalise';
import type { SessionRow, UserRow } from '../rows';
import { toUser } from './users';

const toSession = rowMapper<SessionRow>();

const SESSION_COLUMNS = [
  'id',
  'user_id',
  'created_at',
  'expires_at',
  'revoked_at',
  'revoked_reason',
  'ip',
  'user_agent',
] as const satisfies readonly (keyof SessionRow)[];
/** Prefix of the session's columns in the joined row (no users column starts with it). */
const SESSION_PREFIX = 'session__';
// Hand-written (see selectRows): this runs on every authenticated request and socket handshake.
const FIND_ACTIVE_SESSION_SQL = `select "users".*, ${SESSION_COLUMNS.map(
  (c) => `"sessions"."${c}" as "${SESSION_PREFIX}${c}"`,
).join(', ')}
  from "sessions" inner join "users" on "users"."id" = "sessions"."user_id"
  where "sessions"."id" = ? and "sessions"."revoked_at" is null and "sessions"."expires_at" > ?
  limit 1`;

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

/**
 * The session if it exists, is not revoked and has not expired at `now`, with its user — one query, because every
 * authenticated request and socket handshake asks for both.
 */
export async function findActiveSession(
  db: Db,
  id: string,
  now = Date.now(),
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const [row] = await selectRows(db, FIND_ACTIVE_SESSION_SQL, [id, now]);
  if (!row) return undefined;
  const user: Record<string, unknown> = {};
  const session: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(SESSION_PREFIX)) session[key.slice(SESSION_PREFIX.length)] = value;
    else user[key] = value;
  }
  return { session: toSession(session), user: toUser(user) };
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
