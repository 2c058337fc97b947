import type { Knex } from 'knex';

// Server-side record of every issued JWT, so logout and password changes can revoke tokens before they expire.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 64).primary(); // the JWT `jti`
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('revoked_at');
    t.string('revoked_reason', 64);
    t.string('ip', 64);
    t.string('user_agent', 512);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
}
