import type { Knex } from 'knex';

// Where manual payments go: the operator's UPI id/QR and bank account. Singleton rows (id is always 1), created by
// the first admin save.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('upi_settings', (t) => {
    t.integer('id').primary();
    t.string('upi_id', 100).notNullable();
    t.string('account_holder_name', 200).notNullable();
    t.text('qr_code_image'); // data URL of the uploaded image (spec: qrCodeImage)
    t.bigInteger('updated_at').notNullable();
    t.integer('updated_by').unsigned().references('id').inTable('users').onDelete('SET NULL');
    t.check('id = 1', [], 'upi_settings_singleton');
  });
  await knex.schema.createTable('bank_details', (t) => {
    t.integer('id').primary();
    t.string('account_holder_name', 200).notNullable();
    t.string('account_number', 34).notNullable();
    t.string('ifsc', 11).notNullable();
    t.string('bank_name', 100).notNullable();
    t.string('branch', 100);
    t.bigInteger('updated_at').notNullable();
    t.integer('updated_by').unsigned().references('id').inTable('users').onDelete('SET NULL');
    t.check('id = 1', [], 'bank_details_singleton');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('bank_details');
  await knex.schema.dropTable('upi_settings');
}
