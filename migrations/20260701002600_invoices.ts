import type { Knex } from 'knex';

// GST tax invoices (CGST Rule 46, DOMAIN.md §4). Numbers are ≤ 16 characters and unique per financial year
// (April–March); `invoice_counters` hands them out gap-free inside the transaction that records the payment.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invoice_counters', (t) => {
    t.string('financial_year', 7).primary(); // '2026-27'
    t.integer('last_number').notNullable().defaultTo(0);
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('invoices', (t) => {
    t.increments('id');
    t.string('financial_year', 7).notNullable();
    t.string('number', 16).notNullable();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users');
    t.integer('payment_id').unsigned().notNullable().unique().references('id').inTable('payments');
    t.integer('subscription_id').unsigned().references('id').inTable('subscriptions');
    t.bigInteger('issued_at').notNullable();
    t.string('sac', 8).notNullable().defaultTo('997331');
    t.string('description', 200).notNullable();
    t.string('place_of_supply', 2).notNullable(); // state code
    t.string('recipient_name', 200).notNullable();
    t.string('recipient_email', 254).notNullable();
    t.string('recipient_state_code', 2);
    t.string('recipient_gstin', 15);
    t.bigInteger('taxable_paise').notNullable();
    t.integer('cgst_rate_bp').notNullable().defaultTo(0);
    t.bigInteger('cgst_paise').notNullable().defaultTo(0);
    t.integer('sgst_rate_bp').notNullable().defaultTo(0);
    t.bigInteger('sgst_paise').notNullable().defaultTo(0);
    t.integer('igst_rate_bp').notNullable().defaultTo(0);
    t.bigInteger('igst_paise').notNullable().defaultTo(0);
    t.bigInteger('total_paise').notNullable();
    t.text('supplier_json').notNullable(); // name, address, GSTIN, state code as on the day of issue
    t.bigInteger('created_at').notNullable();
    t.unique(['financial_year', 'number']);
    t.check('length(number) <= 16', [], 'invoices_number_length');
    t.check('total_paise = taxable_paise + cgst_paise + sgst_paise + igst_paise', [], 'invoices_total_sum');
    // Intra-state: CGST + SGST; inter-state: IGST. Never both.
    t.check('igst_paise = 0 OR (cgst_paise = 0 AND sgst_paise = 0)', [], 'invoices_one_tax_regime');
    t.index(['user_id', 'issued_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invoices');
  await knex.schema.dropTable('invoice_counters');
}
