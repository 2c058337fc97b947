import type { Knex } from 'knex';

// Prices exclude GST (added at checkout at `gst_rate_bp`): monthly ₹4,999 → ₹5,898.82 with 18% GST.
export const SEED_PLANS = [
  {
    code: 'monthly',
    name: 'Professional Monthly',
    price_paise: 499_900,
    months: 1,
    active: true,
    sort_order: 1,
  },
  {
    code: 'quarterly',
    name: 'Professional Quarterly',
    price_paise: 1_299_900,
    months: 3,
    active: false,
    sort_order: 2,
  },
  {
    code: 'yearly',
    name: 'Professional Yearly',
    price_paise: 4_999_900,
    months: 12,
    active: false,
    sort_order: 3,
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plans', (t) => {
    t.increments('id');
    t.string('code', 40).notNullable().unique();
    t.string('name', 100).notNullable();
    t.bigInteger('price_paise').notNullable();
    t.integer('months').notNullable();
    t.integer('gst_rate_bp').notNullable().defaultTo(1800);
    t.boolean('active').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.check('price_paise > 0', [], 'plans_price_positive');
    t.check('months > 0', [], 'plans_months_positive');
    t.check('gst_rate_bp >= 0', [], 'plans_gst_rate_non_negative');
  });
  const now = Date.now();
  await knex('plans').insert(
    SEED_PLANS.map((p) => ({ ...p, gst_rate_bp: 1800, created_at: now, updated_at: now })),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('plans');
}
