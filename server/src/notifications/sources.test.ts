// Each fact records its notice in its own transaction: exactly one outbox row with the figures of the fact, none
// when the fact is rolled back, none more when the fact is written again.
import { createPositionRisk, type Order, type TradeOpen } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { loadConfig } from '../config';
import { findPlanByCode, insertSignal, insertUser, type Database, type Db } from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { recordVerifiedPayment } from '../payments/record';
import type { Realtime } from '../realtime/publisher';
import { submitContactMessage } from '../services/contactMessages';
import { createDbOrderStore } from '../trading/orderStore';
import { createRuntimeStore } from '../trading/runtimeStore';
import { renderNotice } from './render';

// Wed 7 Jan 2026, 09:30 IST.
const T = Date.UTC(2026, 0, 7, 4, 0);
const silent = { toAdmins: () => undefined } as unknown as Realtime;
const config = loadConfig({
  OPERATOR_STATE_CODE: '29',
  OPERATOR_GSTIN: '29ABCDE1234F1Z5',
  INVOICE_PREFIX: 'OP',
  PUBLIC_URL: 'https://trade.example.in',
});

interface OutboxRow {
  id: number;
  event: string;
  user_id: number;
  payload: Record<string, unknown>;
  created_at: number;
}

describe.each(testDialects())('notices recorded with their facts (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);
  const database = (): Database => ({ knex: knex(), dialect });
  let n = 0;

  async function user(isAdmin = false) {
    n += 1;
    const row = await insertUser(knex(), {
      email: `src${n}@example.com`,
      first_name: 'Asha',
      last_name: 'Rao',
      password_hash: 'x',
    });
    if (isAdmin) await knex()('users').where({ id: row.id }).update({ is_admin: true });
    return row.id;
  }

  async function outbox(where: { user_id?: number; event?: string }): Promise<OutboxRow[]> {
    const rows = (await knex()('notification_outbox')
      .where(where)
      .orderBy('id')
      .select('id', 'event', 'user_id', 'payload', 'created_at')) as Array<
      Omit<OutboxRow, 'payload'> & { payload: string }
    >;
    return rows.map((r) => ({
      ...r,
      created_at: Number(r.created_at),
      payload: JSON.parse(r.payload) as Record<string, unknown>,
    }));
  }

  async function signal(db: Db) {
    const { signal: row } = await insertSignal(db, {
      strategy_id: null,
      signal_at: T,
      type: 'CALL',
      condition_met: 'test',
      entry_trigger_x100: 2_403_200,
      nifty_price_x100: 2_403_000,
      setup_candle_at: T - 60_000,
      expires_at: T + 60_000,
      interval_minutes: 1,
    });
    return row.id;
  }

  function tradeOpen(userId: number, signalId: number, entryPremium = 100.05): TradeOpen {
    return {
      accountId: String(userId),
      strategyId: '1',
      signalId: String(signalId),
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
      entryPremium,
      paper: true,
      risk: createPositionRisk({ entryPrice: entryPremium, stopLoss: 20, target: 40, entryTime: T + 10_000 }),
      orderIds: [],
    };
  }

  const store = (clock = createManualClock(T + 1)) =>
    createRuntimeStore({
      db: database(),
      publisher: silent,
      brokerOf: () => 'paper',
      strategyRowId: () => null,
      clock,
    });

  it('trade opened and closed: one notice each with the trade figures; closing twice records nothing more', async () => {
    const trader = await user();
    const s = store();
    const tradeId = await s.openTrade(tradeOpen(trader, await signal(knex())));
    const close = {
      tradeId,
      accountId: String(trader),
      exitTime: T + 120_000,
      exitIndex: 24_080,
      exitPremium: 140.95,
      exitTrigger: 141,
      reason: 'TARGET' as const,
      grossPnl: 2_658.5,
      charges: 60.12,
      netPnl: 2_598.38,
      risk: tradeOpen(trader, 0).risk,
      orderIds: [],
    };
    await s.closeTrade(close);
    await s.closeTrade(close);
    const rows = await outbox({ user_id: trader });
    expect(rows.map((r) => [r.event, r.payload])).toEqual([
      [
        'trade_opened',
        {
          tradeId: Number(tradeId),
          symbol: 'NIFTY13JAN2624000CE',
          quantity: 65,
          entryPaise: 10_005,
          stopPaise: expect.any(Number) as number,
          targetPaise: expect.any(Number) as number,
          paper: true,
          openedAt: T + 10_000,
        },
      ],
      [
        'trade_closed',
        {
          tradeId: Number(tradeId),
          symbol: 'NIFTY13JAN2624000CE',
          quantity: 65,
          entryPaise: 10_005,
          exitPaise: 14_095,
          grossPaise: 265_850,
          chargesPaise: 6_012,
          netPaise: 259_838,
          reason: 'target',
          paper: true,
          openedAt: T + 10_000,
          closedAt: T + 120_000,
        },
      ],
    ]);
    expect(rows[0]!.created_at).toBe(T + 1);
    // A winning day records no loss-limit notice.
    expect(await outbox({ user_id: trader, event: 'daily_loss_limit' })).toEqual([]);
  });

  it('daily loss limit: recorded once per trading date when losing closes reach the limit', async () => {
    const trader = await user();
    // ₹1,000 limit: the first loss (−₹600) stays under it, the second (−₹500) reaches it, a third adds nothing.
    await knex()('user_settings')
      .insert({ user_id: trader, max_daily_loss_paise: 100_000, updated_at: T })
      .onConflict('user_id')
      .merge(['max_daily_loss_paise']);
    const s = store();
    const lose = async (netPnl: number, exitTime: number) => {
      const tradeId = await s.openTrade(tradeOpen(trader, await signal(knex())));
      await s.closeTrade({
        tradeId,
        accountId: String(trader),
        exitTime,
        exitIndex: 24_000,
        exitPremium: 90,
        exitTrigger: 90,
        reason: 'STOP_LOSS',
        grossPnl: netPnl + 50,
        charges: 50,
        netPnl,
        risk: tradeOpen(trader, 0).risk,
        orderIds: [],
      });
    };
    await lose(-600, T + 60_000);
    expect(await outbox({ user_id: trader, event: 'daily_loss_limit' })).toEqual([]);
    await lose(-500, T + 120_000);
    await lose(-100, T + 180_000);
    const rows = await outbox({ user_id: trader, event: 'daily_loss_limit' });
    expect(rows.map((r) => r.payload)).toEqual([
      { date: '2026-01-07', lossPaise: 110_000, limitPaise: 100_000, at: T + 120_000 },
    ]);
  });

  /** A close forced by the daily loss limit: −₹108.25 net. */
  const dailyLossClose = (trader: number, tradeId: string) => ({
    tradeId,
    accountId: String(trader),
    exitTime: T + 60_000,
    exitIndex: 24_000,
    exitPremium: 99,
    exitTrigger: 99,
    reason: 'DAILY_LOSS' as const,
    grossPnl: -68.25,
    charges: 40,
    netPnl: -108.25,
    risk: tradeOpen(trader, 0).risk,
    orderIds: [],
  });

  it('daily loss limit: a close forced by the limit records it even below the realised limit', async () => {
    const trader = await user();
    const s = store();
    const tradeId = await s.openTrade(tradeOpen(trader, await signal(knex())));
    await s.closeTrade(dailyLossClose(trader, tradeId));
    expect((await outbox({ user_id: trader, event: 'daily_loss_limit' })).map((r) => r.payload)).toEqual([
      expect.objectContaining({ date: '2026-01-07', lossPaise: 10_825 }),
    ]);
  });

  it("daily loss limit: a live trade's locking close calls the broker's safety net after commit, a paper one not", async () => {
    const trader = await user();
    const locked: number[] = [];
    const s = createRuntimeStore({
      db: database(),
      publisher: silent,
      brokerOf: () => 'dhan',
      strategyRowId: () => null,
      clock: createManualClock(T + 1),
      onDailyLossLock: (userId) => locked.push(userId),
    });
    for (const paper of [true, false]) {
      const tradeId = await s.openTrade({ ...tradeOpen(trader, await signal(knex())), paper });
      await s.closeTrade(dailyLossClose(trader, tradeId));
      expect(locked).toEqual(paper ? [] : [trader]);
    }
  });

  it('order rejected: one notice per rejected order, on the single and the batched write paths', async () => {
    const trader = await user();
    const orders = createDbOrderStore({ db: database(), publisher: silent, brokerOf: () => 'zerodha' });
    const order = (k: number, patch: Partial<Order> = {}): Order => ({
      clientOrderId: `rej${n}-${k}`,
      accountId: String(trader),
      purpose: 'entry',
      sequence: 0,
      leg: 0,
      intentKey: `rej${n}-${k}:${trader}:entry#0`,
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
      createdAt: T,
      updatedAt: T,
      ...patch,
    });
    const a = order(1);
    await orders.create(a);
    await orders.update({ ...a, state: 'SUBMITTED', updatedAt: T + 1 });
    expect(await outbox({ user_id: trader })).toEqual([]);
    const rejected = { ...a, state: 'REJECTED' as const, reason: 'Insufficient funds', updatedAt: T + 2 };
    await orders.update(rejected);
    await orders.update({ ...rejected, updatedAt: T + 3 });
    // Written together: the group commit takes the batch path.
    const b = order(2);
    await Promise.all([
      orders.create(b),
      orders.update({ ...b, state: 'REJECTED', reason: 'Price band', updatedAt: T + 4 }),
      orders.create(order(3)),
    ]);
    const rows = await outbox({ user_id: trader, event: 'order_rejected' });
    expect(rows.map((r) => r.payload)).toEqual([
      {
        kind: 'rejected',
        clientOrderId: a.clientOrderId,
        broker: 'zerodha',
        symbol: 'NIFTY13JAN2623400CE',
        side: 'BUY',
        quantity: 65,
        reason: 'Insufficient funds',
        at: T + 2,
      },
      expect.objectContaining({ clientOrderId: b.clientOrderId, reason: 'Price band' }),
    ]);
  });

  it('payment received: one receipt with the invoice, none when the payment rolls back', async () => {
    const trader = await user();
    const plan = (await findPlanByCode(knex(), 'monthly'))!;
    const clock = createManualClock(Date.UTC(2026, 10, 20, 6, 0, 0));
    const pay = (trx: Db, id: string) =>
      recordVerifiedPayment({
        trx,
        deps: { clock, config },
        userId: trader,
        method: 'razorpay',
        amountPaise: 589_882,
        planId: plan.id,
        providerPaymentId: id,
        paidAt: clock.now(),
        actor: { userId: trader, source: 'checkout' },
      });
    await expect(
      knex().transaction(async (trx) => {
        await pay(trx, `pay_Rollback${n}`);
        throw new Error('the checkout failed after recording');
      }),
    ).rejects.toThrow('the checkout failed');
    expect(await outbox({ user_id: trader })).toEqual([]);

    const recorded = await knex().transaction((trx) => pay(trx, `pay_Notice${n}`));
    const rows = await outbox({ user_id: trader });
    expect(rows.map((r) => [r.event, r.payload])).toEqual([
      [
        'payment_received',
        {
          paymentId: recorded.payment.id,
          amountPaise: 589_882,
          planName: plan.name,
          paidAt: clock.now(),
          endsAt: recorded.subscription.ends_at,
          invoiceId: recorded.invoice.id,
          invoiceNumber: recorded.invoice.number,
        },
      ],
    ]);
    const row = rows[0]!;
    const message = await renderNotice(
      { db: database(), config },
      { id: row.id, event: 'payment_received', userId: trader, payload: row.payload as never, createdAt: 0 },
    );
    expect(message.essential).toBe(true);
    expect(message.title).toBe('Payment received: ₹5,898.82');
    expect(message.text).toContain(`Invoice: ${recorded.invoice.number}`);
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments![0]).toMatchObject({
      filename: `invoice-${recorded.invoice.number.replaceAll('/', '-')}.pdf`,
      contentType: 'application/pdf',
    });
    expect(message.attachments![0]!.content.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('contact message: one notice per admin, stored with the message', async () => {
    const admin = await user(true);
    const before = (await outbox({ user_id: admin })).length;
    const clock = createManualClock(T);
    const row = await submitContactMessage({
      deps: { db: database(), clock },
      message: { name: 'Ravi <b>', email: 'ravi@example.in', message: 'x'.repeat(300) },
    });
    const rows = (await outbox({ user_id: admin })).slice(before);
    expect(rows.map((r) => [r.event, r.payload])).toEqual([
      [
        'contact_message',
        { messageId: row.id, name: 'Ravi <b>', email: 'ravi@example.in', excerpt: `${'x'.repeat(280)}…` },
      ],
    ]);
  });
});
