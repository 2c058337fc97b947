import { createPositionRisk, type Signal, type TradeOpen } from '@optionpilot/engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../clock';
import { insertUser } from '../db';
import { openTestDatabase, testDialects, type TestDatabase } from '../db/testing';
import { createLogger } from '../logger';
import type { Realtime } from '../realtime/publisher';
import { createRuntimeStore } from '../trading/runtimeStore';
import { onNoticeRecorded, recordNotice } from './outbox';
import { createNotificationSender, type NotificationSender } from './sender';
import type { NotificationChannel, RenderedNotification } from './types';

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
const silent = { toAdmins: () => undefined, toUser: () => undefined } as unknown as Realtime;
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe.each(testDialects())('waking the sender after a commit (%s)', (dialect) => {
  let t: TestDatabase | undefined;
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await t?.cleanup();
    t = undefined;
  });

  async function setup() {
    t = await openTestDatabase(dialect);
    const user = await insertUser(t.db.knex, {
      email: `wake-${dialect}@example.com`,
      first_name: 'W',
      last_name: 'K',
      password_hash: 'x',
    });
    return { database: t.db, knex: t.db.knex, userId: user.id };
  }

  it('delivers the notices of a trade open and close without the poll ever running', async () => {
    const { database, knex, userId } = await setup();
    const clock = createManualClock(T);
    const delivered: RenderedNotification[] = [];
    const channel: NotificationChannel = {
      name: 'email',
      deliver: async (_recipient, message) => {
        delivered.push(message);
        return { status: 'sent' };
      },
      close: async () => {},
    };
    const sender: NotificationSender = createNotificationSender({
      db: knex,
      logger: createLogger({ level: 'silent' }),
      clock,
      channels: [channel],
      render: async (notice) => ({
        outboxId: notice.id,
        event: notice.event,
        title: notice.event,
        text: notice.event,
        html: notice.event,
        path: '/',
        essential: false,
      }),
      unsubscribeUrlFor: async () => 'https://op.example/u',
      // an hour: within this test only a wake can start a drain
      pollMs: 3_600_000,
    });
    cleanups.push(() => sender.stop());
    sender.start();
    await flush();

    const store = createRuntimeStore({
      db: database,
      publisher: silent,
      brokerOf: () => 'paper',
      strategyRowId: () => null,
      clock,
    });
    const signalId = await store.saveSignal('1', { kind: 'armed', signal });
    const risk = createPositionRisk({ entryPrice: 100, stopLoss: 20, target: 40, entryTime: T });
    const trade: TradeOpen = {
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
      entryTime: T,
      entryIndex: 24_035,
      entryPremium: 100,
      paper: true,
      risk,
      orderIds: [],
    };
    const tradeId = await store.openTrade(trade);
    await vi.waitFor(() => expect(delivered.map((m) => m.event)).toEqual(['trade_opened']));
    await store.closeTrade({
      tradeId,
      accountId: String(userId),
      exitTime: T + 60_000,
      exitIndex: 24_080,
      exitPremium: 140,
      exitTrigger: 140,
      reason: 'TARGET',
      grossPnl: 2_600,
      charges: 60,
      netPnl: 2_540,
      risk,
      orderIds: [],
    });
    await vi.waitFor(() => expect(delivered.map((m) => m.event)).toEqual(['trade_opened', 'trade_closed']));
    await vi.waitFor(async () =>
      expect(await knex('notification_outbox').where({ status: 'pending' }).count({ n: '*' })).toEqual([
        { n: 0 },
      ]),
    );
  });

  it('wakes once after the outermost commit, never inside the transaction, and not at all on a rollback', async () => {
    const { knex, userId } = await setup();
    const wake = vi.fn();
    cleanups.push(onNoticeRecorded(wake));
    const notice = (factKey: string) => ({
      event: 'trade_closed' as const,
      userId,
      factKey,
      payload: { tradeId: Number(factKey) },
    });

    await knex.transaction(async (trx) => {
      await recordNotice(trx, notice('1'), T);
      // a savepoint's release is no commit: the sender could not see the row yet
      await trx.transaction(async (inner) => {
        await recordNotice(inner, notice('2'), T);
      });
      await flush();
      expect(wake).not.toHaveBeenCalled();
    });
    await flush();
    expect(wake).toHaveBeenCalledTimes(1);

    wake.mockClear();
    await expect(
      knex.transaction(async (trx) => {
        await recordNotice(trx, notice('3'), T);
        throw new Error('the fact failed');
      }),
    ).rejects.toThrow('the fact failed');
    await flush();
    expect(wake).not.toHaveBeenCalled();
    expect(await knex('notification_outbox').where({ dedupe_key: `trade_closed:3:${userId}` })).toEqual([]);
  });

  it('a wake that throws reaches neither the fact nor the other senders', async () => {
    const { knex, userId } = await setup();
    const second = vi.fn();
    cleanups.push(
      onNoticeRecorded(() => {
        throw new Error('broken sender');
      }),
    );
    cleanups.push(onNoticeRecorded(second));
    await knex.transaction(async (trx) => {
      await recordNotice(trx, { event: 'trade_closed', userId, factKey: '9', payload: {} }, T);
    });
    await flush();
    expect(second).toHaveBeenCalledTimes(1);
    expect(await knex('notification_outbox').count({ n: '*' })).toEqual([{ n: 1 }]);
  });
});
