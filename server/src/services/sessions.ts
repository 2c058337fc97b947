// Sessions: every issued token has a `sessions` row; a request is authenticated only while that row is live
// (not revoked, not expired) and its user is not disabled. Checked against the database on every request rather
// than cached, so a logout or password change takes effect immediately.
import { randomUUID } from 'node:crypto';
import type { Deps, RequestMeta } from '../deps';
import { AppError } from '../errors';
import {
  createSession,
  findActiveSession,
  touchUserActivity,
  type Db,
  type SessionRow,
  type UserRow,
} from '../db';

/** `last_active_at` is written at most this often per user: it is informative, not worth a write per request. */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

export interface Authenticated {
  user: UserRow;
  session: SessionRow;
}

export interface OpenedSession {
  sessionId: string;
  expiresAt: number;
}

/** Inserts a session row for `userId` (inside the caller's transaction); sign the token after the commit. */
export async function openSession(props: {
  db: Db;
  deps: Pick<Deps, 'clock' | 'config'>;
  userId: number;
  meta: RequestMeta;
}): Promise<OpenedSession> {
  const { db, deps, userId, meta } = props;
  const now = deps.clock.now();
  const sessionId = randomUUID();
  const expiresAt = now + deps.config.jwtTtlMs;
  await createSession(
    db,
    { id: sessionId, user_id: userId, expires_at: expiresAt, ip: meta.ip, user_agent: meta.userAgent },
    now,
  );
  return { sessionId, expiresAt };
}

/** Signs the JWT of an opened session. */
export function signSession(props: {
  deps: Pick<Deps, 'tokens'>;
  userId: number;
  session: OpenedSession;
}): Promise<string> {
  return props.deps.tokens.sign({ userId: props.userId, ...props.session });
}

/** Resolves a bearer token to its live session and user, or throws 401. */
export async function authenticateToken(props: {
  deps: Pick<Deps, 'db' | 'clock' | 'tokens'>;
  token: string;
}): Promise<Authenticated> {
  const { deps, token } = props;
  const claims = await deps.tokens.verify(token);
  if (!claims) throw new AppError('unauthenticated', { message: 'Your sign-in is invalid or has expired.' });
  const now = deps.clock.now();
  const found = await findActiveSession(deps.db.knex, claims.sessionId, now);
  if (!found || found.session.user_id !== claims.userId) throw new AppError('session_expired');
  const { session, user } = found;
  // No session of the demo account is ever honoured: visitors read it through GET /api/demo only.
  if (user.disabled_at !== null || user.is_demo) throw new AppError('session_expired');
  if (user.last_active_at === null || now - user.last_active_at >= ACTIVITY_WRITE_INTERVAL_MS) {
    await touchUserActivity(deps.db.knex, user.id, now);
    user.last_active_at = now;
  }
  return { user, session };
}
