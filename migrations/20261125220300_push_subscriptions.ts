import type { Knex } from 'knex';

// Browser push (issue 20): one row per browser a user turned push on in. The endpoint is the push service's URL
// for that browser (unique: a browser re-subscribing replaces its row); p256dh and auth are the browser's public
// key and auth secret the payload is encrypted to. None of them is a password, but together they let anyone
// write to that browser, so they are treated as private: never logged, never returned by the API.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_subscriptions', (t) => {
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    // Push service URLs are long (FCM's are ~190 characters); 2048 leaves room for any service.
    t.string('endpoint', 2048).notNullable().unique();
    t.string('p256dh', 200).notNullable();
    t.string('auth', 100).notNullable();
    t.string('user_agent', 300);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_success_at');
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('push_subscriptions');
}
