import type { Knex } from 'knex';

// Renewal reminders (issue 11): one row per (user, subscription end, kind) claimed before the e-mail is sent, so a
// reminder goes out at most once even with two processes or a restart mid-run. A renewal moves the end date, so
// the new end gets its own reminders. `sending`: claimed, the mail server not yet answered (a crash leaves it so:
// at most once, never twice); `skipped`: not sent on purpose (no SMTP configured, or the 3-day reminder
// was overtaken by the 1-day one while the server was down); `failed`: the mail server refused it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('renewal_reminders', (t) => {
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('end_at').notNullable();
    t.enu('kind', ['3d', '1d']).notNullable();
    t.enu('status', ['sending', 'sent', 'skipped', 'failed']).notNullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['user_id', 'end_at', 'kind']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('renewal_reminders');
}
