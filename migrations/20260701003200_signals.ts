import type { Knex } from 'knex';

// Every setup the strategy detects, executed or not (admin Signals tab). Index levels are hundredths of a point.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signals', (t) => {
    t.increments('id');
    t.bigInteger('signal_at').notNullable(); // when the setup candle closed and the signal was armed
    t.enu('type', ['CALL', 'PUT']).notNullable();
    t.text('condition_met').notNullable(); // human-readable rule that fired
    t.bigInteger('entry_trigger_x100').notNullable();
    t.bigInteger('nifty_price_x100').notNullable();
    t.bigInteger('setup_candle_at').notNullable(); // start of the setup candle
    t.bigInteger('expires_at').notNullable(); // end of the armed interval
    t.integer('interval_minutes').notNullable();
    t.boolean('executed').notNullable().defaultTo(false);
    t.bigInteger('executed_at');
    t.bigInteger('executed_price_x100');
    t.text('skipped_reason');
    // A restart or a replay must not record the same setup twice.
    t.unique(['setup_candle_at', 'interval_minutes', 'type']);
    t.index(['signal_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('signals');
}
