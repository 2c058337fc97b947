import {
  createPositionRisk,
  type Order,
  type Signal,
  type StrategyEvent,
  type TradeOpen,
} from '@optionpilot/engine';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { insertUser, listLogs, listSignals, listTrades, type Dialect } from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import type { Realtime } from '../realtime/publisher';
import { onNoticeRecorded } from '../notifications/outbox';
import { createRuntimeStore } from './runtimeStore';

const T = Date.UTC(2026, 0, 7, 4, 0);
const signal: Signal = {
  key: 'CALL-1m-1',
  time: T,
  type: 'CALL',
  condition: '3 bullish candles ≥ 5 pts',
  entryTrigger: 24_032,
  niftyPrice: 24_030,
  setupCandleTime: T - 60_000,
  interval: 1,
  expiresAt: T + 60_000,
  status: 'armed',
  executed: false,
};
const silent = { toAdmins: () => undefined } as unknown as Realtime;

describe.each(testDialects())('runtime store (%s)', (dialect: Dialect) => {
  const db = useTestDatabase(dialect);
  // the senders hear of a committed notice through the outbox (what a running sender subscribes to)
  let woken = 0;
  let stopListening = (): void => {};
  beforeEach(() => {
    woken = 0;
    stopListening = onNoticeRecorded(() => {
      woken += 1;
    });
  });
  afterEach(() => stopListening());
  const store = () =>
    createRuntimeStore({
      db: { knex: db(), dialect },
      publisher: silent,
      brokerOf: () => 'paper',
      strategyRowId: () => 1,
    });
  const notices = async () =>
    ((await db()('notification_outbox').orderBy('id').pluck('event')) as string[]).filter((e) =>
      e.startsWith('trade_'),
    );

  it('keeps one signal row through its life, and records a trade from open to close with its audit rows', async () => {
    const s = store();
    const armed: StrategyEvent = { kind: 'armed', signal };
    const executed: StrategyEvent = {
      kind: 'executed',
      signal: {
        ...signal,
        status: 'executed',
        executed: true,
        executedAt: T + 10_000,
        executedPrice: 24_035,
      },
    };
    const id = await s.saveSignal('1', armed);
    expect(await s.saveSignal('1', executed)).toBe(id);
    const [row] = await listSignals(db());
    expect(row).toMatchObject({ strategy_id: 1, executed: true, executed_price_x100: 2_403_500 });
    expect(s.rows.signal(id)).toMatchObject({ executed: true });

    const user = await insertUser(db(), {
      email: `st-${dialect}@example.com`,
      first_name: 'S',
      last_name: 'T',
      password_hash: 'x',
    });
    const risk = createPositionRisk({ entryPrice: 100.05, stopLoss: 20, target: 40, entryTime: T + 10_000 });
    const trade: TradeOpen = {
      accountId: String(user.id),
      strategyId: '1',
      signalId: id,
      signalTime: T,
      type: 'CALL',
      optionType: 'CE',
      strike: 24_000,
      expiry: '2026-01-13',
      expiryAt: T + 6 * 86_400_000,
      symbol: 'NIFTY13JAN2624000CE',
      lots: 1,
      quantity: 65,
      legs: 1,
      entryTime: T + 10_000,
      entryIndex: 24_035,
      entryPremium: 100.05,
      paper: true,
      risk,
      orderIds: [],
    };
    const tradeId = await s.openTrade(trade);
    // the sender is woken once the notice is committed, so it can send at once
    expect(await notices()).toEqual(['trade_opened']);
    await vi.waitFor(() => expect(woken).toBe(1));
    await s.saveRisk(tradeId, { ...risk, stopPrice: 105, highWater: 125 });
    expect(s.rows.trade(tradeId)).toMatchObject({ stop_loss_paise: 10_500, status: 'open' });
    await s.closeTrade({
      tradeId,
      accountId: String(user.id),
      exitTime: T + 120_000,
      exitIndex: 24_080,
      exitPremium: 140.95,
      exitTrigger: 141,
      reason: 'TARGET',
      grossPnl: 2_658.5,
      charges: 60.12,
      netPnl: 2_598.38,
      risk,
      orderIds: [],
    });
    expect(await notices()).toEqual(['trade_opened', 'trade_closed']);
    await vi.waitFor(() => expect(woken).toBe(2));
    const [closed] = await listTrades(db(), { userId: user.id });
    expect(closed).toMatchObject({
      status: 'closed',
      exit_reason: 'target',
      exit_price_paise: 14_095,
      pnl_paise: 259_838,
      charges_paise: 6_012,
      opened_at: T + 10_000,
      closed_at: T + 120_000,
    });
    const logs = (await listLogs(db(), { userId: user.id })).map((l) => l.description);
    expect(logs.some((d) => d.startsWith(`Paper trade #${tradeId} opened`))).toBe(true);
    expect(logs.some((d) => d.startsWith(`Paper trade #${tradeId} closed (target)`))).toBe(true);
    s.rows.release(tradeId);
    expect(s.rows.trade(tradeId)).toBeUndefined();
  });

  it('opens trades that fill together in one batch: each links its own orders and logs its own id, a repeated one fails alone', async () => {
    const s = store();
    const signalId = await s.saveSignal('1', {
      kind: 'armed',
      signal: { ...signal, key: 'CALL-1m-2', setupCandleTime: T + 60_000 },
    });
    const users = await Promise.all(
      [0, 1, 2].map((i) =>
        insertUser(db(), {
          email: `batch${i}-${dialect}@example.com`,
          first_name: 'B',
          last_name: String(i),
          password_hash: 'x',
        }),
      ),
    );
    const entry = (userId: number, i: number): Order => ({
      clientOrderId: `e${i}`,
      accountId: String(userId),
      purpose: 'entry',
      signalId,
      sequence: 0,
      leg: 0,
      intentKey: `${signalId}:${userId}:entry#0`,
      symbol: 'NIFTY13JAN2624000CE',
      side: 'BUY',
      type: 'MARKET',
      quantity: 65,
      product: 'MIS',
      tag: 'OPTEST',
      state: 'FILLED',
      filledQty: 65,
      avgPrice: 100 + i,
      fillIds: [`f${i}`],
      createdAt: T,
      updatedAt: T,
    });
    await Promise.all(users.map((u, i) => s.orders.create(entry(u.id, i))));
    const opening = (userId: number, i: number): TradeOpen => ({
      accountId: String(userId),
      strategyId: '1',
      signalId,
      signalTime: T,
      type: 'CALL',
      optionType: 'CE',
      strike: 24_000,
      expiry: '2026-01-13',
      expiryAt: T + 6 * 86_400_000,
      symbol: 'NIFTY13JAN2624000CE',
      lots: 1,
      quantity: 65,
      legs: 1,
      entryTime: T + i,
      entryIndex: 24_035,
      entryPremium: 100 + i,
      paper: i !== 1,
      risk: createPositionRisk({ entryPrice: 100 + i, stopLoss: 20, target: 40, entryTime: T + i }),
      orderIds: [`e${i}`],
    });
    const [a, b, c] = users.map((u, i) => opening(u.id, i));
    if (a === undefined || b === undefined || c === undefined) throw new Error('three users expected');
    // Queued in one turn, each pair is one batch: the first written whole (multi-row statements); the second holds
    // a repeated (signal, user), which sends it back to one write per trade.
    const first = await Promise.all([s.openTrade(a), s.openTrade(b)]);
    const second = await Promise.allSettled([s.openTrade(c), s.openTrade(a)]);
    expect(second.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    const ids = [...first, ...second.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))];
    for (const [i, user] of users.entries()) {
      const tradeId = ids[i] ?? '';
      expect(s.rows.trade(tradeId)).toMatchObject({
        user_id: user.id,
        entry_price_paise: (100 + i) * 100,
        paper: i !== 1,
        status: 'open',
      });
      const order = (await db()('orders')
        .where({ client_order_id: `e${i}` })
        .first()) as { trade_id: unknown };
      expect(Number(order.trade_id)).toBe(Number(tradeId));
      expect(s.rows.log(tradeId)?.description).toMatch(
        new RegExp(`^${i === 1 ? 'Live' : 'Paper'} trade #${tradeId} opened: BUY 65`),
      );
    }
    const ofSignal = (await listTrades(db(), {})).filter((t) => t.signal_id === Number(signalId));
    expect(ofSignal).toHaveLength(3);
  });

  it('opens trades in batches of many (multi-row statements), each with its own row and log line', async () => {
    const s = store();
    const signalId = await s.saveSignal('1', {
      kind: 'armed',
      signal: { ...signal, key: 'CALL-1m-3', setupCandleTime: T + 120_000 },
    });
    const users = [];
    for (let i = 0; i < 150; i += 1) {
      users.push(
        await insertUser(db(), {
          email: `many${i}-${dialect}@example.com`,
          first_name: 'M',
          last_name: String(i),
          password_hash: 'x',
        }),
      );
    }
    const risk = createPositionRisk({ entryPrice: 100, stopLoss: 20, target: 40, entryTime: T });
    const ids = await Promise.all(
      users.map((u) =>
        s.openTrade({
          accountId: String(u.id),
          strategyId: '1',
          signalId,
          signalTime: T,
          type: 'CALL',
          optionType: 'CE',
          strike: 24_000,
          expiry: '2026-01-13',
          expiryAt: T + 6 * 86_400_000,
          symbol: 'NIFTY13JAN2624000CE',
          lots: 1,
          quantity: 65,
          legs: 1,
          entryTime: T,
          entryIndex: 24_035,
          entryPremium: 100,
          paper: true,
          risk,
          orderIds: [],
        }),
      ),
    );
    expect(new Set(ids).size).toBe(150);
    users.forEach((u, i) => expect(s.rows.trade(ids[i] ?? '')?.user_id).toBe(u.id));
    const logs = await listLogs(db(), { eventType: 'trade', limit: 1000 });
    expect(logs.filter((l) => l.description.includes(`signal #${signalId};`))).toHaveLength(150);
  });
});
