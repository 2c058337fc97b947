import type { Knex } from 'knex';

// OAuth `state` values for broker logins: random, bound to the user and the session (jti) that started the login,
// short-lived and single use (DOMAIN.md §3).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('broker_oauth_states', (t) => {
    t.increments('id');
    t.string('state', 128).notNullable().unique();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('session_id', 64);
    t.string('broker_type', 16).notNullable();
    t.string('redirect_uri', 512);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at');
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('broker_oauth_states');
}
