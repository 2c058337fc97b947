// Accounts flagged as test (`test_accounts`): created by admins to try the product, left out of revenue and counts;
// and the customer filter that leaves them and admins out.
import type { Knex } from 'knex';
import type { Db } from '../../db';

/** Flags `userId` as a test account (inside the transaction that creates it). */
export async function flagTestAccount(
  db: Db,
  props: { userId: number; createdBy: number; now: number },
): Promise<void> {
  await db('test_accounts').insert({
    user_id: props.userId,
    created_by: props.createdBy,
    created_at: props.now,
  });
}

/** The ids among `userIds` that are test accounts. */
export async function testAccountIds(db: Db, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = (await db('test_accounts').whereIn('user_id', userIds).select('user_id')) as Array<{
    user_id: number;
  }>;
  return new Set(rows.map((r) => Number(r.user_id)));
}

/** Restricts `builder` to rows whose `column` is not a test account's user id. */
export function excludingTestAccounts(builder: Knex.QueryBuilder, column: string): void {
  void builder.whereNotExists(function sub(this: Knex.QueryBuilder) {
    void this.select(1).from('test_accounts').whereRaw(`test_accounts.user_id = ${column}`);
  });
}

/**
 * Restricts a `users` query to customers: neither a test account, an admin nor the demo account (admins run the product and are not
 * counted among its users or revenue-facing figures).
 */
export function customersOnly(builder: Knex.QueryBuilder, usersTable = 'users'): void {
  // Nor the visitors' demo account: the server's own, trading paper for the demo page.
  void builder.where(`${usersTable}.is_admin`, false).where(`${usersTable}.is_demo`, false);
  excludingTestAccounts(builder, `${usersTable}.id`);
}
