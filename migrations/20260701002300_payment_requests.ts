import type { Knex } from 'knex';

// Manual UPI / bank-transfer payments: the user submits the UTR (and optionally a screenshot), an admin reviews.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_requests', (t) => {
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users'); // no cascade: records are kept
    t.integer('plan_id').unsigned().references('id').inTable('plans');
    t.enu('method', ['upi', 'bank_transfer']).notNullable().defaultTo('upi');
    // A UTR can be claimed once: a second request quoting the same transfer is refused by the database.
    t.string('utr_number', 32).notNullable().unique();
    t.bigInteger('amount_paise').notNullable();
    t.enu('status', ['pending', 'approved', 'rejected']).notNullable().defaultTo('pending');
    t.string('screenshot_path', 255); // relative to DATA_DIR/uploads
    t.text('admin_notes');
    t.integer('reviewed_by').unsigned().references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('reviewed_at');
    t.bigInteger('approved_at');
    t.bigInteger('created_at').notNullable();
    t.check('amount_paise > 0', [], 'payment_requests_amount_positive');
    t.index(['status', 'created_at']);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_requests');
}
