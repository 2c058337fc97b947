import type { Knex } from 'knex';

// The visitors' demo account (issue 18): one user the server keeps, traded on paper by the engine and shown
// read-only at /test-dashboard. A column on `users` rather than a side table like `test_accounts`: sign-in,
// session and password-reset checks read it from the row they already load, so refusing the demo account every
// session costs no extra query; lists and counts leave it out with one `where`.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('is_demo').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('is_demo');
  });
}
