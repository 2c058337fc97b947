import type { Knex } from 'knex';

// Money actually received, whatever the route: a verified Razorpay payment (checkout or webhook), an approved
// UPI/bank request, or a test-mode payment. Unique provider ids make verification and webhooks idempotent.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payments', (t) => {
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users'); // no cascade: records are kept
    t.enu('method', ['razorpay', 'upi', 'bank_transfer', 'test']).notNullable();
    t.integer('payment_order_id').unsigned().unique().references('id').inTable('payment_orders');
    t.integer('payment_request_id').unsigned().unique().references('id').inTable('payment_requests');
    t.integer('plan_id').unsigned().references('id').inTable('plans');
    t.string('provider_payment_id', 64).unique();
    t.string('utr', 32);
    t.bigInteger('amount_paise').notNullable();
    t.enu('status', ['captured', 'failed', 'refunded']).notNullable().defaultTo('captured');
    t.bigInteger('paid_at').notNullable();
    t.bigInteger('created_at').notNullable();
    t.check('amount_paise > 0', [], 'payments_amount_positive');
    t.index(['user_id', 'paid_at']);
    t.index(['paid_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payments');
}
