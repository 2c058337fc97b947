import type { Knex } from 'knex';

// A checkout attempt. The amount is computed on the server from the plan (and offer); the browser's is ignored.
// amount_paise = base_paise - discount_paise + gst_paise.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_orders', (t) => {
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users'); // no cascade: records are kept
    t.enu('provider', ['razorpay', 'test']).notNullable();
    t.string('provider_order_id', 64).notNullable().unique();
    t.integer('plan_id').unsigned().notNullable().references('id').inTable('plans');
    t.integer('offer_id').unsigned().references('id').inTable('offers').onDelete('SET NULL');
    t.bigInteger('base_paise').notNullable();
    t.bigInteger('discount_paise').notNullable().defaultTo(0);
    t.bigInteger('gst_paise').notNullable();
    t.bigInteger('amount_paise').notNullable();
    t.string('currency', 3).notNullable().defaultTo('INR');
    t.enu('status', ['created', 'paid', 'failed', 'expired']).notNullable().defaultTo('created');
    t.string('receipt', 40).notNullable().unique(); // Razorpay allows at most 40 characters
    t.bigInteger('created_at').notNullable();
    t.bigInteger('paid_at');
    t.check('amount_paise = base_paise - discount_paise + gst_paise', [], 'payment_orders_amount_sum');
    t.check('amount_paise > 0', [], 'payment_orders_amount_positive');
    t.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_orders');
}
