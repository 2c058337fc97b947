import type { Knex } from 'knex';

// Who the tax invoice is made out to, asked at checkout and kept with the order until the payment arrives (the
// webhook may settle it while the browser is closed): state (place of supply) and, for B2B, GSTIN and business name.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_orders', (t) => {
    t.string('buyer_state_code', 2);
    t.string('buyer_gstin', 15);
    t.string('buyer_name', 200);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_orders', (t) => {
    t.dropColumn('buyer_name');
    t.dropColumn('buyer_gstin');
    t.dropColumn('buyer_state_code');
  });
}
