import type { Knex } from 'knex';

// Notifications (issue 20). `notification_outbox` holds one row per event and recipient, written in the same
// transaction as the fact it reports (a trade closed, a payment captured), so a crash can lose neither the fact nor
// its notice. `notification_deliveries` holds one row per outbox row and channel: claimed before the channel is
// called (unique pair), so a notice goes out at most once per (event, user, channel); it carries the retry state
// and the last error for the admin page. `notification_preferences` holds only the choices a user changed from the
// defaults (server/src/notifications/preferences.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_outbox', (t) => {
    t.increments('id');
    t.string('event', 40).notNullable();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    /** what the renderer needs, JSON: figures as recorded with the fact (paise, epoch ms) */
    t.text('payload').notNullable();
    /** one notice per fact: e.g. `trade_closed:42:7` (event, fact id, user) */
    t.string('dedupe_key', 160).notNullable().unique();
    /** 'pending' until every channel's delivery is settled, then 'done' */
    t.string('status', 16).notNullable().defaultTo('pending');
    t.bigInteger('created_at').notNullable();
    t.index(['status', 'id']);
  });
  await knex.schema.createTable('notification_deliveries', (t) => {
    t.increments('id');
    t.integer('outbox_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('notification_outbox')
      .onDelete('CASCADE');
    t.string('channel', 16).notNullable();
    /** pending (claimed, retrying) | sent | failed (gave up) | no_address | off (the user turned it off) */
    t.string('status', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('next_attempt_at');
    t.string('last_error', 500);
    t.string('detail', 200);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['outbox_id', 'channel']);
    t.index(['status', 'next_attempt_at']);
  });
  await knex.schema.createTable('notification_preferences', (t) => {
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('event', 40).notNullable();
    t.string('channel', 16).notNullable();
    t.boolean('enabled').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['user_id', 'event', 'channel']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_preferences');
  await knex.schema.dropTable('notification_deliveries');
  await knex.schema.dropTable('notification_outbox');
}
