import type { Knex } from 'knex';

// One UPI/bank payment request under review per user (issue 9): the service checks first, and this partial unique
// index makes the rule hold when two submissions race. Both SQLite and PostgreSQL support partial indexes.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE UNIQUE INDEX payment_requests_one_pending ON payment_requests (user_id) WHERE status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX payment_requests_one_pending');
}
