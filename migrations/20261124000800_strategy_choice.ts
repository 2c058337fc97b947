import type { Knex } from 'knex';

// Many strategies (issue 8): each signal records the strategy that produced it, so two strategies on the same
// interval can both signal on one candle, and each subscriber may follow a strategy other than the default
// (trading_settings.strategy_id, null = the built-in one). Plain integer columns, not foreign keys: SQLite can
// only add a foreign key by rebuilding the table, and strategies are deactivated, never deleted.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('signals', (t) => {
    t.integer('strategy_id');
  });
  await knex.schema.alterTable('signals', (t) => {
    t.dropUnique(['setup_candle_at', 'interval_minutes', 'type']);
    t.unique(['strategy_id', 'setup_candle_at', 'interval_minutes', 'type'], {
      indexName: 'signals_strategy_setup_unique',
    });
  });
  await knex.schema.alterTable('trading_settings', (t) => {
    t.integer('strategy_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('trading_settings', (t) => {
    t.dropColumn('strategy_id');
  });
  await knex.schema.alterTable('signals', (t) => {
    t.dropUnique(
      ['strategy_id', 'setup_candle_at', 'interval_minutes', 'type'],
      'signals_strategy_setup_unique',
    );
    t.unique(['setup_candle_at', 'interval_minutes', 'type']);
  });
  await knex.schema.alterTable('signals', (t) => {
    t.dropColumn('strategy_id');
  });
}
