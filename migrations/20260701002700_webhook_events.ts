import type { Knex } from 'knex';

// Every provider webhook, recorded before it is acted on; the unique (provider, event_id) makes retries no-ops.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_events', (t) => {
    t.increments('id');
    t.string('provider', 20).notNullable();
    t.string('event_id', 128).notNullable();
    t.string('event_type', 64).notNullable();
    t.text('payload').notNullable(); // raw JSON body as received
    t.bigInteger('received_at').notNullable();
    t.bigInteger('processed_at');
    t.text('error');
    t.unique(['provider', 'event_id']);
    t.index(['received_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_events');
}
