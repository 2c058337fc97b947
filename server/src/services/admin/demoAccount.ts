// The visitors' demo account (users.is_demo) is the server's own, not a customer: admin lists, counts and trade
// figures leave it out. Its trades still reach the admins' live log, as the engine's work they are.
import type { Knex } from 'knex';

/** Restricts `builder` to rows whose `column` (a user id) is not the demo account's. */
export function excludingDemoAccount(builder: Knex.QueryBuilder, column: string): void {
  void builder.whereNotExists(function sub(this: Knex.QueryBuilder) {
    void this.select(1)
      .from('users as demo_users')
      .whereRaw(`demo_users.id = ${column}`)
      .where('demo_users.is_demo', true);
  });
}
