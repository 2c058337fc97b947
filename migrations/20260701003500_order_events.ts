import type { Knex } from 'knex';
import { createAppendOnlyTriggers, dropAppendOnlyTriggers } from './helpers';

const COLUMNS = ['id', 'order_id', 'at', 'event_type', 'from_status', 'to_status', 'data'];

// The order audit trail (SEBI: algo orders kept 5 years): every event applied to an order, append-only.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('order_events', (t) => {
    t.increments('id');
    t.integer('order_id').unsigned().notNullable().references('id').inTable('orders');
    t.bigInteger('at').notNullable();
    t.string('event_type', 32).notNullable(); // SUBMIT, ACCEPT, FILL, ... (engine OrderEvent types)
    t.string('from_status', 20);
    t.string('to_status', 20);
    t.text('data'); // JSON: the event as received
    t.index(['order_id', 'at']);
    t.index(['at']);
  });
  await createAppendOnlyTriggers(knex, 'order_events', COLUMNS);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('order_events');
  await dropAppendOnlyTriggers(knex, 'order_events');
}
