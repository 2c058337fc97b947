import type { Knex } from 'knex';

// One position per row, paper or live. Premiums are paise per unit; `risk_state` (JSON) holds the risk manager's
// state (stop, high-water mark, trailing) so a restart resumes managing open positions.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('trades', (t) => {
    t.increments('id');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users'); // no cascade: records are kept
    t.integer('signal_id').unsigned().references('id').inTable('signals').onDelete('SET NULL');
    t.string('symbol', 40).notNullable(); // canonical option symbol, e.g. NIFTY06JAN2624000CE
    t.string('instrument', 20).notNullable().defaultTo('NIFTY');
    t.enu('trade_type', ['CALL', 'PUT']).notNullable();
    t.enu('option_type', ['CE', 'PE']).notNullable();
    t.bigInteger('strike_x100').notNullable();
    t.bigInteger('expiry_at').notNullable();
    t.integer('lots').notNullable();
    t.integer('quantity').notNullable(); // units = lots × lot size at entry
    t.bigInteger('entry_price_paise').notNullable();
    t.bigInteger('exit_price_paise');
    t.bigInteger('stop_loss_paise').notNullable();
    t.bigInteger('target_paise').notNullable();
    t.bigInteger('pnl_paise'); // net of charges once closed; null while open
    t.bigInteger('charges_paise').notNullable().defaultTo(0);
    t.enu('status', ['open', 'closed', 'cancelled']).notNullable().defaultTo('open');
    t.string('exit_reason', 32); // stop_loss, target, trailing_stop, square_off, daily_loss, manual, ...
    t.boolean('paper').notNullable();
    t.text('risk_state');
    t.bigInteger('opened_at').notNullable();
    t.bigInteger('closed_at');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.check('lots > 0 AND quantity > 0', [], 'trades_size_positive');
    // One position per user per signal, even across restarts (NULL signal ids are not constrained).
    t.unique(['signal_id', 'user_id']);
    t.index(['user_id', 'opened_at']);
    t.index(['status', 'user_id']);
    t.index(['opened_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('trades');
}
