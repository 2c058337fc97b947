import type { Knex } from 'knex';

// Global bot controls and strategy parameters (spec "Admin control": values are strings). The engine reads them
// at start and on every change; `updated_by` records which admin changed a value (also written to `logs`).
export const SEED_ADMIN_CONTROLS: ReadonlyArray<readonly [string, string]> = [
  ['tradingEnabled', 'true'],
  ['putEnabled', 'true'],
  ['callEnabled', 'true'],
  ['stopLoss', '20'],
  ['target', '40'],
  ['minMovement', '5'],
  ['entryOffset', '2'],
  ['consecutiveCandles', '3'],
  ['candleInterval', '1'],
  ['squareOffTime', '15:15'],
  ['maxOrdersPerSecond', '10'],
  ['algoTag', 'OPTIONPILOT'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admin_controls', (t) => {
    t.string('setting_name', 64).primary();
    t.text('value').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.integer('updated_by').unsigned().references('id').inTable('users').onDelete('SET NULL');
  });
  const now = Date.now();
  await knex('admin_controls').insert(
    SEED_ADMIN_CONTROLS.map(([setting_name, value]) => ({
      setting_name,
      value,
      updated_at: now,
      updated_by: null,
    })),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('admin_controls');
}
