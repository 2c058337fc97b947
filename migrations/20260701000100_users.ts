import type { Knex } from 'knex';

export const SUBSCRIPTION_STATUSES = ['active', 'pending', 'inactive', 'expired'] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    // Stored lowercase so lookups and the unique index are case-insensitive on both dialects.
    t.string('email', 254).notNullable().unique();
    t.string('first_name', 100).notNullable();
    t.string('last_name', 100).notNullable();
    t.string('phone', 32).notNullable().defaultTo('');
    t.string('password_hash', 255).notNullable();
    t.boolean('is_admin').notNullable().defaultTo(false);
    t.enu('subscription_status', SUBSCRIPTION_STATUSES).notNullable().defaultTo('pending');
    t.bigInteger('subscription_start_at');
    t.bigInteger('subscription_end_at');
    // GST place of supply: the two-digit state code (e.g. '27' Maharashtra); null until the user gives it.
    t.string('state_code', 2);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('last_active_at');
    t.bigInteger('password_changed_at');
    t.bigInteger('disabled_at');
    t.check('email = lower(email)', [], 'users_email_lowercase');
    t.index(['subscription_status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
