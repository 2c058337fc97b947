import type { Knex } from 'knex';

// The name the broker holds for the account (Kite `user_name`, Upstox `user_name`), learnt at login and shown on
// the Broker Connection card next to "Connected", so a trader sees which account the bot trades.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('broker_accounts', (t) => {
    t.string('broker_account_name', 200);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('broker_accounts', (t) => {
    t.dropColumn('broker_account_name');
  });
}
