import type { Knex } from 'knex';

// Discount offers managed by admins (none seeded). Spec defaults: 10% off, 50 users; "valid 30 days" is relative
// to creation, so the service sets `valid_until_at` (a column default cannot express it).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('offers', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('code', 40).unique(); // optional coupon code entered at checkout
    t.integer('discount_bp').notNullable().defaultTo(1000);
    // null: every plan
    t.integer('plan_id').unsigned().references('id').inTable('plans').onDelete('SET NULL');
    t.bigInteger('valid_from_at');
    t.bigInteger('valid_until_at');
    t.integer('max_users').defaultTo(50); // null: unlimited
    t.integer('used_count').notNullable().defaultTo(0);
    t.boolean('active').notNullable().defaultTo(true);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.check('discount_bp > 0 AND discount_bp <= 10000', [], 'offers_discount_range');
    t.check('used_count >= 0', [], 'offers_used_count_non_negative');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('offers');
}
