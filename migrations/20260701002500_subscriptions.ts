import type { Knex } from 'knex';

// History of subscription periods. `users.subscription_*` hold the current state; each activation or extension
// (payment, approved request, admin edit) adds a row here. One row per payment at most: retries cannot extend twice.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('subscriptions', (t) => {
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users'); // no cascade: records are kept
    t.integer('plan_id').unsigned().references('id').inTable('plans');
    t.bigInteger('starts_at').notNullable();
    t.bigInteger('ends_at').notNullable();
    t.enu('source', ['payment', 'admin', 'trial']).notNullable().defaultTo('payment');
    t.integer('payment_id').unsigned().unique().references('id').inTable('payments');
    t.integer('created_by').unsigned().references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('created_at').notNullable();
    t.check('ends_at > starts_at', [], 'subscriptions_period_order');
    t.index(['user_id', 'ends_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('subscriptions');
}
