import type { Knex } from 'knex';
import { createAppendOnlyTriggers, dropAppendOnlyTriggers } from './helpers';

export const LOG_COLUMNS = ['id', 'at', 'event_type', 'description', 'user_id', 'actor_id', 'data'] as const;

// The audit log (SEBI asks for an append-only trail of algo orders; admin actions and payments go here too).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('logs', (t) => {
    t.increments('id');
    t.bigInteger('at').notNullable();
    t.string('event_type', 32).notNullable();
    t.text('description').notNullable();
    t.integer('user_id').unsigned().references('id').inTable('users').onDelete('SET NULL');
    // Who did it (an admin, or the user themself); kept without a foreign key so the record survives as written.
    t.integer('actor_id').unsigned();
    t.text('data'); // JSON
    t.index(['at']);
    t.index(['event_type', 'at']);
    t.index(['user_id', 'at']);
  });
  await createAppendOnlyTriggers(knex, 'logs', LOG_COLUMNS, ['user_id']);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('logs');
  await dropAppendOnlyTriggers(knex, 'logs');
}
