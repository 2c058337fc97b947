import type { Db } from '../knex';
import { countOf, rowMapper } from '../normalise';
import type { SubscriptionStatus, UserRow } from '../rows';

export const toUser = rowMapper<UserRow>(['is_admin', 'is_demo']);

export interface NewUser {
  email: string;
  first_name: string;
  last_name: string;
  phone?: string;
  password_hash: string;
  is_admin?: boolean;
  is_demo?: boolean;
  subscription_status?: SubscriptionStatus;
  state_code?: string | null;
}

/** Columns a caller may change; `updated_at` is set by `updateUser`. */
export type UserPatch = Partial<Omit<UserRow, 'id' | 'created_at' | 'updated_at'>>;

/** E-mail addresses are compared and stored lowercase (trimmed). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Inserts a user; a duplicate e-mail raises a unique violation (see `isUniqueViolation`). */
export async function insertUser(db: Db, user: NewUser, now = Date.now()): Promise<UserRow> {
  const [row] = await db('users')
    .insert({ ...user, email: normaliseEmail(user.email), created_at: now, updated_at: now })
    .returning('*');
  return toUser(row);
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const row: unknown = await db('users').where({ id }).first();
  return row ? toUser(row) : undefined;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const row: unknown = await db('users')
    .where({ email: normaliseEmail(email) })
    .first();
  return row ? toUser(row) : undefined;
}

/** Updates the given columns (and `updated_at`); returns the new row, or undefined when no such user. */
export async function updateUser(
  db: Db,
  id: number,
  patch: UserPatch,
  now = Date.now(),
): Promise<UserRow | undefined> {
  const values: Record<string, unknown> = { ...patch, updated_at: now };
  if (patch.email !== undefined) values.email = normaliseEmail(patch.email);
  const [row] = await db('users').where({ id }).update(values).returning('*');
  return row ? toUser(row) : undefined;
}

/** Records activity without touching `updated_at` (it changes on every authenticated request). */
export async function touchUserActivity(db: Db, id: number, now = Date.now()): Promise<void> {
  await db('users').where({ id }).update({ last_active_at: now });
}

/** Number of admins that are not disabled. */
export async function countAdmins(db: Db): Promise<number> {
  return countOf(await db('users').where({ is_admin: true }).whereNull('disabled_at').count({ n: '*' }));
}

export interface ListUsersFilter {
  /** matches e-mail, first, last or full name (case-insensitive substring) */
  search?: string;
  status?: SubscriptionStatus;
  isAdmin?: boolean;
  limit?: number;
  offset?: number;
}

/** Users, newest first. */
export async function listUsers(db: Db, filter: ListUsersFilter = {}): Promise<UserRow[]> {
  const query = db('users').select('*');
  if (filter.status) query.where({ subscription_status: filter.status });
  if (filter.isAdmin !== undefined) query.where({ is_admin: filter.isAdmin });
  if (filter.search) {
    const pattern = `%${filter.search
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // LOWER(...) LIKE with an explicit escape behaves the same on both dialects (pg's LIKE is case-sensitive).
    query.where((w) =>
      w
        .whereRaw(`email LIKE ? ESCAPE '\\'`, [pattern])
        .orWhereRaw(`LOWER(first_name) LIKE ? ESCAPE '\\'`, [pattern])
        .orWhereRaw(`LOWER(last_name) LIKE ? ESCAPE '\\'`, [pattern])
        .orWhereRaw(`LOWER(first_name || ' ' || last_name) LIKE ? ESCAPE '\\'`, [pattern]),
    );
  }
  query.orderBy([
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (filter.limit !== undefined) query.limit(filter.limit);
  if (filter.offset !== undefined) query.offset(filter.offset);
  return (await query).map(toUser);
}

/** Number of users, optionally in one subscription status. */
export async function countUsers(db: Db, status?: SubscriptionStatus): Promise<number> {
  const query = db('users').count({ n: '*' });
  if (status) query.where({ subscription_status: status });
  return countOf(await query);
}
