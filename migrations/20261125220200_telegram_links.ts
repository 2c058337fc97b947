import type { Knex } from 'knex';

// Telegram (issue 20). `telegram_links` ties one trader to one private chat with the bot: the chat commands
// (/status, /pause, …) act on that trader only, and notifications go to that chat. A chat id is kept as text:
// Telegram's ids reach 52 bits, beyond a 32-bit integer, and are only ever compared. One trader has one chat and
// one chat one trader (both unique), so a command can never be ambiguous about whose bot it acts on.
// `telegram_link_codes` holds the one-time codes a trader sends as `/start <code>`: only their SHA-256 (a leaked
// table links nobody), short-lived, spent by the one UPDATE that links.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('telegram_links', (t) => {
    t.integer('user_id')
      .unsigned()
      .notNullable()
      .primary()
      .references('id')
      .inTable('users')
      .onDelete('CASCADE');
    t.string('chat_id', 32).notNullable().unique();
    /** the Telegram @username at linking time, shown in Settings (may be absent: usernames are optional) */
    t.string('username', 64);
    t.bigInteger('linked_at').notNullable();
  });
  await knex.schema.createTable('telegram_link_codes', (t) => {
    t.increments('id');
    /** SHA-256 hex of the code */
    t.string('code_hash', 64).notNullable().unique();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at');
    t.bigInteger('created_at').notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('telegram_link_codes');
  await knex.schema.dropTable('telegram_links');
}
