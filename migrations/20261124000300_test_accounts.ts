import type { Knex } from 'knex';

// Accounts an admin created for trying the product (POST /api/admin/create-test-user): paper trading on a demo
// subscription. Kept beside `users` rather than as a column so every revenue and user count can leave them out
// with one anti-join, and the users table stays as the sign-up flow writes it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('test_accounts', (t) => {
    t.integer('user_id').unsigned().primary().references('id').inTable('users').onDelete('CASCADE');
    t.integer('created_by').unsigned().references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('test_accounts');
}
