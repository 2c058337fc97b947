import type { Knex } from 'knex';

// The last reconciliation of a trader's positions with their broker (issue 10 item 6), as JSON: when, and each
// difference with what was done about it. The Broker Connection card and the dashboard show it to the trader.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('broker_accounts', (t) => {
    t.text('position_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('broker_accounts', (t) => {
    t.dropColumn('position_check');
  });
}
