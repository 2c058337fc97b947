import { afterEach, describe, expect, it } from 'vitest';
import { migrations, StaticMigrationSource } from '../../../migrations';
import { insertSignal, insertTrade, insertUser } from '.';
import { openTestDatabase, testDialects, type TestDatabase } from './testing';

const MIGRATION = '20261125190000_order_intents';
const config = (list = migrations) => ({
  migrationSource: new StaticMigrationSource(list),
  tableName: 'knex_migrations',
});

describe.each(testDialects())('the order intents migration on %s', (dialect) => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('converts existing orders by their intent key once, keeps their audit trail, and goes back down', async () => {
    t = await openTestDatabase(dialect, { migrate: false });
    const { knex } = t.db;
    await knex.migrate.latest(
      config(
        migrations.slice(
          0,
          migrations.findIndex((m) => m.name === MIGRATION),
        ),
      ),
    );

    // Orders as the schema before held them: what they are for only in the key, a stop stored as an exit.
    const user = await insertUser(knex, {
      email: 'm@example.com',
      first_name: 'M',
      last_name: 'S',
      password_hash: 'x',
    });
    const trade = await insertTrade(knex, {
      user_id: user.id,
      signal_id: null,
      symbol: 'NIFTY13JAN2623400CE',
      instrument: 'NIFTY',
      trade_type: 'CALL',
      option_type: 'CE',
      strike_x100: 2_340_000,
      expiry_at: 1_768_300_000_000,
      lots: 1,
      quantity: 65,
      entry_price_paise: 10_000,
      stop_loss_paise: 8_000,
      target_paise: 14_000,
      paper: false,
      risk_state: null,
      opened_at: 1_000,
    });
    const old = [
      ['e0', `7:${user.id}:entry#0`, 'entry', null],
      ['e1', `7:${user.id}:entry#1`, 'entry', null],
      ['x2', `${trade.id}:exit:2#0`, 'exit', trade.id],
      ['s3', `${trade.id}:stop:3#1`, 'exit', trade.id],
      ['x1', `${trade.id}:exit:1`, 'exit', trade.id],
    ] as const;
    for (const [id, key, purpose, tradeId] of old) {
      await knex('orders').insert({
        client_order_id: id,
        intent_key: key,
        user_id: user.id,
        trade_id: tradeId,
        signal_id: null,
        broker: 'paper',
        symbol: 'NIFTY13JAN2623400CE',
        side: purpose === 'entry' ? 'BUY' : 'SELL',
        order_type: 'MARKET',
        quantity: 65,
        status: 'FILLED',
        tag: 'T',
        purpose,
        created_at: 1_000,
        updated_at: 1_000,
      });
    }
    const stopRow = (await knex('orders').where({ client_order_id: 's3' }).first()) as { id: number };
    await knex('order_events').insert({ order_id: stopRow.id, at: 1_000, event_type: 'CREATED' });

    // Up to this migration only: later ones (which may follow it in any number) are not under test here.
    const upTo = migrations.slice(0, migrations.findIndex((m) => m.name === MIGRATION) + 1);
    const [, applied] = (await knex.migrate.latest(config(upTo))) as [number, string[]];
    expect(applied).toEqual([MIGRATION]);

    const rows = (await knex('orders')
      .select('client_order_id', 'purpose', 'trade_id', 'sequence', 'leg')
      .orderBy('id')) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.client_order_id, r.purpose, r.trade_id, r.sequence, r.leg])).toEqual([
      ['e0', 'entry', null, 0, 0],
      ['e1', 'entry', null, 0, 1],
      ['x2', 'exit', trade.id, 2, 0],
      ['s3', 'stop', trade.id, 3, 1],
      ['x1', 'exit', trade.id, 1, 0],
    ]);
    // The audit trail still points at its order (SQLite rebuilt the table to change the purpose CHECK).
    const events = (await knex('order_events').select('order_id')) as Array<{ order_id: number }>;
    expect(events.map((e) => Number(e.order_id))).toEqual([stopRow.id]);
    // Foreign keys are enforced again after the rebuild (SQLite's were off around it).
    await expect(
      knex('order_events').insert({ order_id: 999_999, at: 2_000, event_type: 'CREATED' }),
    ).rejects.toThrow();
    const orderOf = (id: string, purpose: string, signalId: number | null, leg: number) => ({
      client_order_id: id,
      intent_key: `key-${id}`,
      user_id: user.id,
      trade_id: null,
      signal_id: signalId,
      broker: 'paper',
      symbol: 'NIFTY13JAN2623400CE',
      side: 'BUY',
      order_type: 'MARKET',
      quantity: 65,
      tag: 'T',
      purpose,
      leg,
      created_at: 2_000,
      updated_at: 2_000,
    });
    // The constraints survived: purpose is still checked, quantity still positive, one entry per signal and leg.
    await expect(knex('orders').insert(orderOf('bad', 'close', null, 0))).rejects.toThrow();
    await expect(
      knex('orders').insert({ ...orderOf('zero', 'entry', null, 0), quantity: 0 }),
    ).rejects.toThrow();
    const { signal } = await insertSignal(knex, {
      strategy_id: 1,
      signal_at: 3_000_000,
      type: 'CALL',
      condition_met: 'test',
      entry_trigger_x100: 2_450_000,
      nifty_price_x100: 2_449_525,
      setup_candle_at: 2_940_000,
      expires_at: 3_060_000,
      interval_minutes: 1,
    });
    const signalId = signal.id;
    await knex('orders').insert(orderOf('leg0', 'entry', signalId, 0));
    await knex('orders').insert(orderOf('leg1', 'entry', signalId, 1));
    await expect(knex('orders').insert(orderOf('again', 'entry', signalId, 1))).rejects.toThrow();

    await knex.migrate.rollback(config(upTo));
    const after = (await knex('orders').where({ client_order_id: 's3' }).first()) as Record<string, unknown>;
    expect(after.purpose).toBe('exit');
    expect('sequence' in after).toBe(false);
    expect(await knex('order_events').count({ n: '*' })).toEqual([{ n: expect.anything() }]);
  });
});
