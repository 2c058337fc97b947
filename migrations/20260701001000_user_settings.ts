import type { Knex } from 'knex';

// The Settings tab, persisted per user and enforced by the engine (decisions.md). Defaults are the spec's:
// risk medium, max daily loss ₹5,000, trading hours 09:15–15:30 IST, auto trading on, notifications on.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_settings', (t) => {
    t.integer('user_id').unsigned().primary().references('id').inTable('users').onDelete('CASCADE');
    t.enu('risk_level', ['low', 'medium', 'high']).notNullable().defaultTo('medium');
    t.bigInteger('max_daily_loss_paise').notNullable().defaultTo(500_000);
    t.string('trading_start', 5).notNullable().defaultTo('09:15'); // HH:MM IST
    t.string('trading_end', 5).notNullable().defaultTo('15:30');
    t.boolean('auto_trading').notNullable().defaultTo(true);
    t.boolean('notify_push').notNullable().defaultTo(true);
    t.boolean('notify_trade_execution').notNullable().defaultTo(true);
    t.boolean('notify_pnl_updates').notNullable().defaultTo(true);
    t.boolean('notify_system_alerts').notNullable().defaultTo(true);
    t.bigInteger('updated_at').notNullable();
    t.check('max_daily_loss_paise > 0', [], 'user_settings_max_daily_loss_positive');
    t.check('trading_start < trading_end', [], 'user_settings_trading_hours_order');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_settings');
}
