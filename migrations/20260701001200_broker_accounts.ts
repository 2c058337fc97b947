import type { Knex } from 'knex';

// Canonical broker types (the spec's `grow`/`upstokes` are mapped on input, DOMAIN.md §3).
const BROKER_TYPES = ['zerodha', 'upstox', 'aliceblue', 'fyers', 'groww', 'angelone', 'dhan'];
const STATUSES = ['credentials_saved', 'connected', 'expired', 'error', 'disconnected'];

// One broker connection per user. Every credential is sealed (AES-256-GCM, `*_enc`); `api_key_last4` lets admins
// see a masked key without decrypting anything.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('broker_accounts', (t) => {
    t.increments('id');
    t.integer('user_id')
      .unsigned()
      .notNullable()
      .unique()
      .references('id')
      .inTable('users')
      .onDelete('CASCADE');
    t.enu('broker_type', BROKER_TYPES).notNullable();
    t.text('api_key_enc').notNullable();
    t.text('api_secret_enc').notNullable();
    t.string('api_key_last4', 4).notNullable();
    // The user's id at the broker (Kite user id, Angel client code, AliceBlue userId), learnt at login.
    t.string('broker_user_id', 64);
    t.text('access_token_enc');
    t.text('refresh_token_enc');
    t.bigInteger('token_expires_at');
    t.enu('status', STATUSES).notNullable().defaultTo('credentials_saved');
    t.text('last_error');
    t.bigInteger('connected_at');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['broker_type']);
    t.index(['status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('broker_accounts');
}
