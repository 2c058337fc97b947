import type { Knex } from 'knex';

// The Algo Trading switch and Trading Settings dialog, persisted per user (decisions.md); the engine reads them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('trading_settings', (t) => {
    t.integer('user_id').unsigned().primary().references('id').inTable('users').onDelete('CASCADE');
    t.boolean('bot_enabled').notNullable().defaultTo(false);
    // The dialog offers SLM only; the wider CHECK leaves room for the strategy's MARKET/LIMIT without a migration.
    t.enu('order_type', ['SLM', 'MARKET', 'LIMIT']).notNullable().defaultTo('SLM');
    t.integer('target_points').notNullable().defaultTo(40);
    t.integer('trade_quantity').notNullable().defaultTo(1); // lots
    t.enu('mode', ['paper', 'live']).notNullable().defaultTo('paper');
    t.bigInteger('updated_at').notNullable();
    t.check('target_points BETWEEN 15 AND 40', [], 'trading_settings_target_range');
    t.check('trade_quantity BETWEEN 1 AND 10', [], 'trading_settings_quantity_range');
    t.index(['bot_enabled']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('trading_settings');
}
