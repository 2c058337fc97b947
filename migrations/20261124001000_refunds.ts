import type { Knex } from 'knex';

// Refunds of recorded payments and the GST credit notes they issue (issue 11; CGST section 34: a tax invoice is
// never edited, a refund is documented by a credit note against it). A refund row is written before Razorpay is
// asked (persist-before-send): `pending` reserves its amount so two admins cannot refund more than was paid;
// `processed` issues the credit note; `failed` frees the amount. Credit notes have their own gap-free series
// per financial year (`OPC/26-27/00001`), handed out by `credit_note_counters` in the refund's transaction.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('refunds', (t) => {
    t.increments('id');
    t.integer('payment_id').unsigned().notNullable().references('id').inTable('payments');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users');
    t.bigInteger('amount_paise').notNullable();
    t.enu('status', ['pending', 'processed', 'failed']).notNullable();
    t.string('provider_refund_id', 64).unique();
    t.string('reason', 200).notNullable();
    t.integer('created_by').unsigned().references('id').inTable('users');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.check('amount_paise > 0', [], 'refunds_amount_positive');
    t.index(['payment_id']);
  });
  await knex.schema.createTable('credit_note_counters', (t) => {
    t.string('financial_year', 7).primary();
    t.integer('last_number').notNullable().defaultTo(0);
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('credit_notes', (t) => {
    t.increments('id');
    t.string('financial_year', 7).notNullable();
    t.string('number', 16).notNullable();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users');
    t.integer('invoice_id').unsigned().notNullable().references('id').inTable('invoices');
    t.integer('refund_id').unsigned().notNullable().unique().references('id').inTable('refunds');
    t.bigInteger('issued_at').notNullable();
    t.string('reason', 200).notNullable();
    t.bigInteger('taxable_paise').notNullable();
    t.bigInteger('cgst_paise').notNullable().defaultTo(0);
    t.bigInteger('sgst_paise').notNullable().defaultTo(0);
    t.bigInteger('igst_paise').notNullable().defaultTo(0);
    t.bigInteger('total_paise').notNullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['financial_year', 'number']);
    t.check('length(number) <= 16', [], 'credit_notes_number_length');
    t.check(
      'total_paise = taxable_paise + cgst_paise + sgst_paise + igst_paise',
      [],
      'credit_notes_total_sum',
    );
    t.check('igst_paise = 0 OR (cgst_paise = 0 AND sgst_paise = 0)', [], 'credit_notes_one_tax_regime');
    t.index(['user_id', 'issued_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('credit_notes');
  await knex.schema.dropTable('credit_note_counters');
  await knex.schema.dropTable('refunds');
}
