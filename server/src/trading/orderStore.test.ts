import { DuplicateIntentError, type Order } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import { insertTrade, insertUser } from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import type { Realtime } from '../realtime/publisher';
import { createDbOrderStore } from './orderStore';

describe.each(testDialects())('createDbOrderStore (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);

  const order = (userId: number, n: number, patch: Partial<Order> = {}): Order => ({
    clientOrderId: `c${n}`,
    accountId: String(userId),
    purpose: 'entry',
    sequence: 0,
    leg: 0,
    intentKey: `9${n}:${userId}:entry#0`,
    symbol: 'NIFTY13JAN2623400CE',
    side: 'BUY',
    type: 'MARKET',
    quantity: 65,
    product: 'MIS',
    tag: 'OPTEST',
    state: 'INITIALIZED',
    filledQty: 0,
    avgPrice: 0,
    fillIds: [],
    createdAt: 1_000 + n,
    updatedAt: 1_000 + n,
    ...patch,
  });

  async function setUp(email: string) {
    const user = await insertUser(knex(), { email, first_name: 'O', last_name: 'S', password_hash: 'x' });
    const published: string[] = [];
    const publisher = {
      toAdmins: (_event: string, log: { description: string }) => published.push(log.description),
    } as unknown as Realtime;
    const store = createDbOrderStore({ db: { knex: knex(), dialect }, publisher, brokerOf: () => 'paper' });
    return { userId: user.id, store, published };
  }

  async function eventsOf(clientOrderId: string): Promise<string[]> {
    const row = (await knex()('orders').where({ client_order_id: clientOrderId }).first()) as { id: number };
    const events = (await knex()('order_events').where({ order_id: row.id }).orderBy('id')) as Array<{
      event_type: string;
      from_status: string | null;
    }>;
    return events.map((e) => `${e.from_status ?? '-'}>${e.event_type}`);
  }

  it('writes a batch whole: creates and the updates of one order within it, in order', async () => {
    const { userId, store, published } = await setUp('batch@example.com');
    const a = order(userId, 1);
    await Promise.all([
      store.create(a),
      store.create(order(userId, 2)),
      store.update({ ...a, state: 'SUBMITTED', updatedAt: 2_000 }),
      store.update({
        ...a,
        state: 'FILLED',
        filledQty: 65,
        avgPrice: 101.5,
        fillIds: ['f1'],
        updatedAt: 3_000,
      }),
    ]);
    expect(await store.get('c1')).toMatchObject({
      state: 'FILLED',
      filledQty: 65,
      avgPrice: 101.5,
      fillIds: ['f1'],
    });
    expect(await store.get('c2')).toMatchObject({ state: 'INITIALIZED' });
    const row = (await knex()('orders').where({ client_order_id: 'c1' }).first()) as { created_at: unknown };
    expect(Number(row.created_at)).toBe(1_001);
    expect(await eventsOf('c1')).toEqual(['->CREATED', 'INITIALIZED>SUBMITTED', 'SUBMITTED>FILLED']);
    expect(published).toEqual([
      'Order BUY 65 NIFTY13JAN2623400CE created [c1]',
      'Order BUY 65 NIFTY13JAN2623400CE created [c2]',
      'Order BUY 65 NIFTY13JAN2623400CE SUBMITTED [c1]',
      'Order BUY 65 NIFTY13JAN2623400CE FILLED @ ₹101.50 [c1]',
    ]);
  });

  it('stores what an order is for in columns and reads it back from them, as recovery after a restart does', async () => {
    const { userId, store } = await setUp('purpose@example.com');
    const trade = await insertTrade(knex(), {
      user_id: userId,
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
    const positionId = String(trade.id);
    const stop = order(userId, 31, {
      side: 'SELL',
      type: 'SL-M',
      triggerPrice: 80,
      purpose: 'stop',
      positionId,
      sequence: 2,
      leg: 1,
      intentKey: `${positionId}:stop:2#1`,
    });
    const exit = order(userId, 32, {
      side: 'SELL',
      purpose: 'exit',
      positionId,
      sequence: 1,
      intentKey: `${positionId}:exit:1#0`,
    });
    await Promise.all([store.create(stop), store.create(exit)]);
    const row = (await knex()('orders').where({ client_order_id: 'c31' }).first()) as Record<string, unknown>;
    expect(row).toMatchObject({ purpose: 'stop', trade_id: trade.id, sequence: 2, leg: 1 });
    const open = await store.listOpen(String(userId));
    expect(open.map((o) => [o.clientOrderId, o.purpose, o.positionId, o.sequence, o.leg])).toEqual([
      ['c31', 'stop', positionId, 2, 1],
      ['c32', 'exit', positionId, 1, 0],
    ]);
    expect(await store.get('c31')).toEqual(stop);
  });

  it('refuses a repeated intent key alone: the rest of its batch is written', async () => {
    const { userId, store } = await setUp('dupe@example.com');
    const a = order(userId, 11);
    const b = order(userId, 12);
    const outcomes = await Promise.allSettled([
      store.create(a),
      store.create(b),
      store.create(order(userId, 13, { intentKey: b.intentKey })),
      store.update({ ...a, state: 'SUBMITTED', updatedAt: 2_000 }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateIntentError);
    expect(await store.get('c13')).toBeUndefined();
    expect(await eventsOf('c11')).toEqual(['->CREATED', 'INITIALIZED>SUBMITTED']);
  });

  it('gives an order created SUBMITTED (sent at once) the audit trail of its two steps, batched or alone', async () => {
    const { userId, store, published } = await setUp('direct@example.com');
    const submitted = (n: number, patch: Partial<Order> = {}) =>
      order(userId, n, { state: 'SUBMITTED', ...patch });
    // Batched (multi-row statements), then alone (a repeated intent key sends the batch one write at a time).
    await Promise.all([store.create(submitted(21)), store.create(submitted(22))]);
    const alone = await Promise.allSettled([
      store.create(submitted(23)),
      store.create(submitted(24, { intentKey: order(userId, 23).intentKey })),
    ]);
    expect(alone.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect(published.filter((line) => line.includes('[c21]'))).toEqual([
      'Order BUY 65 NIFTY13JAN2623400CE created, SUBMITTED [c21]',
    ]);
    for (const id of ['c21', 'c22', 'c23']) {
      expect(await eventsOf(id)).toEqual(['->CREATED', 'INITIALIZED>SUBMITTED']);
      expect(await store.get(id)).toMatchObject({ state: 'SUBMITTED' });
    }
    const row = (await knex()('orders').where({ client_order_id: 'c21' }).first()) as { id: number };
    const created = (await knex()('order_events').where({ order_id: row.id }).orderBy('id').first()) as {
      to_status: string;
    };
    expect(created.to_status).toBe('INITIALIZED');
  });
});
