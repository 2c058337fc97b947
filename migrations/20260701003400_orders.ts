import type { Knex } from 'knex';

// The engine's order states (engine/src/execution/orderTypes.ts) and types, frozen here as of this migration.
const ORDER_STATES = [
  'INITIALIZED',
  'SUBMITTED',
  'ACCEPTED',
  'PARTIALLY_FILLED',
  'FILLED',
  'REJECTED',
  'CANCEL_PENDING',
  'CANCELLED',
  'MODIFY_PENDING',
  'EXPIRED',
  'UNKNOWN',
];

// Every order sent (or about to be sent) to a broker or the paper broker. The row is written before the broker is
// called (STYLE §13); `intent_key` and (signal_id, user_id, purpose) make entries idempotent across restarts.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('orders', (t) => {
    t.increments('id');
    t.string('client_order_id', 64).notNullable().unique();
    t.string('intent_key', 128).notNullable().unique();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users'); // no cascade: records are kept
    t.integer('trade_id').unsigned().references('id').inTable('trades').onDelete('SET NULL');
    t.integer('signal_id').unsigned().references('id').inTable('signals').onDelete('SET NULL');
    t.string('broker', 16).notNullable(); // 'paper' or a broker type
    t.string('broker_order_id', 64);
    t.string('symbol', 40).notNullable();
    t.enu('side', ['BUY', 'SELL']).notNullable();
    t.enu('order_type', ['MARKET', 'LIMIT', 'SL', 'SL-M']).notNullable();
    t.enu('product', ['MIS', 'NRML']).notNullable().defaultTo('MIS');
    t.integer('quantity').notNullable();
    t.bigInteger('price_paise');
    t.bigInteger('trigger_price_paise');
    t.enu('status', ORDER_STATES).notNullable().defaultTo('INITIALIZED');
    t.integer('filled_quantity').notNullable().defaultTo(0);
    t.bigInteger('average_price_paise').notNullable().defaultTo(0);
    t.text('fill_ids').notNullable().defaultTo('[]'); // JSON array: a fill reported twice counts once
    t.text('pending_amendment'); // JSON while MODIFY_PENDING
    t.string('protected_from', 8); // the order type asked for when market protection rewrote it
    t.boolean('late_fill').notNullable().defaultTo(false);
    t.string('tag', 20).notNullable();
    t.enu('purpose', ['entry', 'exit']).notNullable();
    t.text('reject_reason');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.check('quantity > 0', [], 'orders_quantity_positive');
    t.check('filled_quantity >= 0 AND filled_quantity <= quantity', [], 'orders_filled_range');
    t.unique(['signal_id', 'user_id', 'purpose']);
    t.index(['user_id', 'created_at']);
    t.index(['status']);
    t.index(['broker', 'broker_order_id']);
    t.index(['trade_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('orders');
}
