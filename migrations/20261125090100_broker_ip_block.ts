import type { Knex } from 'knex';

// A broker that refuses the server's IP address on an order (SEBI's static-IP rule) blocks the account's live
// orders until the trader has whitelisted the address and says so (or logs in again): when it happened, null while
// the account is not blocked. The token stays valid and stored; the account only stops sending orders.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('broker_accounts', (t) => {
    t.bigInteger('ip_blocked_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('broker_accounts', (t) => {
    t.dropColumn('ip_blocked_at');
  });
}
