import { createScaledScheduler } from '@optionpilot/engine';
import { testDialects } from '../../db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminControlDto } from '../../contract';
import {
  appendLog,
  insertPayment,
  insertSignal,
  insertTrade,
  markSignalExecuted,
  type NewTrade,
} from '../../db';
import { flagTestAccount } from '../../services/admin/testAccounts';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';
import { connected, openSocket } from '../../testing/socket';

// 11:30 IST on Tuesday 10 Nov 2026.
const NOW = Date.UTC(2026, 10, 10, 6, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const trade = (userId: number, overrides: Partial<NewTrade> = {}): NewTrade => ({
  user_id: userId,
  signal_id: null,
  symbol: 'NIFTY17NOV2624000CE',
  instrument: 'NIFTY 24000 CE',
  trade_type: 'CALL',
  option_type: 'CE',
  strike_x100: 2_400_000,
  expiry_at: NOW + 7 * DAY,
  lots: 1,
  quantity: 65,
  entry_price_paise: 12_050,
  stop_loss_paise: 10_050,
  target_paise: 16_050,
  paper: true,
  risk_state: null,
  opened_at: NOW - HOUR,
  ...overrides,
});

describe.each(testDialects())('admin overview, controls and activity (%s)', (dialect) => {
  let t: TestServer;
  let admin: Caller;
  let trader: Caller;
  let tester: Caller;
  beforeAll(async () => {
    // The market clock (signals, trades) and the server's (logs, sessions) both at NOW.
    t = await startTestServer({
      dialect,
      overrides: { trading: { scheduler: createScaledScheduler({ speed: 1, startAt: NOW }) } },
    });
    t.clock.set(NOW);
    admin = await signInFirstAdmin(t);
    trader = await registerTrader(t, 'ov1');
    tester = await registerTrader(t, 'ov2');
    const db = t.server.deps.db.knex;
    await flagTestAccount(db, { userId: tester.id, createdBy: admin.id, now: NOW });
    await insertPayment(db, {
      user_id: trader.id,
      method: 'upi',
      utr: '111111111111',
      amount_paise: 589_882,
      paid_at: NOW - DAY,
    });
    await insertPayment(db, {
      user_id: tester.id,
      method: 'upi',
      utr: '222222222222',
      amount_paise: 100_000,
      paid_at: NOW - DAY,
    });
    // Last month: not this month's revenue.
    await insertPayment(db, {
      user_id: trader.id,
      method: 'upi',
      utr: '333333333333',
      amount_paise: 50_000,
      paid_at: NOW - 40 * DAY,
    });
    await db('users')
      .whereIn('id', [trader.id, tester.id])
      .update({ subscription_status: 'active', subscription_end_at: NOW + 30 * DAY });
    const win = await insertTrade(db, trade(trader.id));
    await db('trades')
      .where({ id: win.id })
      .update({ status: 'closed', pnl_paise: 5_000, closed_at: NOW - HOUR / 2 });
    const loss = await insertTrade(
      db,
      trade(tester.id, {
        trade_type: 'PUT',
        option_type: 'PE',
        symbol: 'NIFTY17NOV2624000PE',
        instrument: 'NIFTY 24000 PE',
        opened_at: NOW - 3 * DAY,
      }),
    );
    await db('trades')
      .where({ id: loss.id })
      .update({ status: 'closed', pnl_paise: -2_000, closed_at: NOW - 3 * DAY });
    await insertTrade(db, trade(trader.id, { opened_at: NOW - 10 * 60_000 }));
    for (const [i, type] of (['CALL', 'PUT', 'CALL'] as const).entries()) {
      const { signal } = await insertSignal(db, {
        signal_at: NOW - (i + 1) * HOUR,
        type,
        condition_met: `${type} setup ${i}`,
        entry_trigger_x100: 2_400_000,
        nifty_price_x100: 2_399_000,
        setup_candle_at: NOW - (i + 1) * HOUR - 60_000,
        expires_at: NOW - (i + 1) * HOUR + 60_000,
        interval_minutes: 1,
        strategy_id: null,
      });
      if (i === 0) await markSignalExecuted(db, signal.id, NOW - HOUR, 2_400_100);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/admin/stats counts real users and this month’s revenue, leaving test accounts out', async () => {
    const res = await t.request('GET', '/api/admin/stats', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      activeUsers: 1,
      monthlyRevenue: 589_882,
      monthlyGrossPaise: 589_882,
      monthlyRefundsPaise: 0,
      monthlyGst: { cgstPaise: 0, sgstPaise: 0, igstPaise: 0 },
      totalTrades: 3,
      winRate: 50,
      botRunning: true,
    });
    expect((await t.request('GET', '/api/admin/stats', { token: trader.token })).status).toBe(403);
    expect((await t.request('GET', '/api/admin/stats')).status).toBe(401);
  });

  it('GET /api/admin/system-health reports every real check', async () => {
    const res = await t.request('GET', '/api/admin/system-health', { token: admin.token });
    expect(res.status).toBe(200);
    const names = (res.json.checks as Array<{ name: string }>).map((c) => c.name);
    expect(names).toEqual([
      'feed',
      'database',
      'brokerSessions',
      'openPositions',
      'eventLoop',
      'memory',
      'calendar',
    ]);
    expect(res.json.database).toMatchObject({ ok: true });
    expect((res.json.calendar as { yearsCovered: number[] }).yearsCovered).toContain(2026);
    expect(res.json.openPositions).toBe(t.server.deps.trading.openPositions().length);
  });

  describe('controls', () => {
    it('refuses an unknown setting and an out-of-bounds value, naming the field, and stores nothing', async () => {
      const unknown = await t.request('PUT', '/api/admin/control/leverage', {
        token: admin.token,
        body: { value: '10' },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.json.field).toBe('settingName');
      const bounds = await t.request('PUT', '/api/admin/control/stopLoss', {
        token: admin.token,
        body: { value: '0' },
      });
      expect(bounds.status).toBe(400);
      expect(bounds.json.field).toBe('value');
      const flag = await t.request('PUT', '/api/admin/control/putEnabled', {
        token: admin.token,
        body: { value: 'yes' },
      });
      expect(flag.status).toBe(400);
      const controls = await t.request('GET', '/api/admin/controls', { token: admin.token });
      const stopLoss = (controls.json as unknown as AdminControlDto[]).find(
        (c) => c.settingName === 'stopLoss',
      );
      expect(stopLoss?.value).toBe('20');
    });

    it('stores a valid value, audits before → after, reloads the runtime and tells the admins', async () => {
      const reload = vi.spyOn(t.server.deps.trading, 'reloadControls');
      const socket = await connected(openSocket(t.url, admin.token));
      const heard = new Promise<AdminControlDto>((resolve) => socket.once('admin:control', resolve));
      try {
        const res = await t.request('PUT', '/api/admin/control/stopLoss', {
          token: admin.token,
          body: { value: 25 },
        });
        expect(res.status).toBe(200);
        expect(res.json).toMatchObject({ success: true, control: { settingName: 'stopLoss', value: '25' } });
        expect(reload).toHaveBeenCalled();
        expect((await heard).value).toBe('25');
        const log = await t.server.deps.db
          .knex('logs')
          .where({ description: 'stopLoss changed: 20 → 25' })
          .first();
        expect(log).toMatchObject({ actor_id: admin.id, event_type: 'admin' });
      } finally {
        socket.disconnect();
        reload.mockRestore();
      }
    });

    it('pause and resume flip the master switch', async () => {
      const paused = await t.request('POST', '/api/admin/trading/pause', { token: admin.token });
      expect(paused.json).toMatchObject({ success: true, isRunning: false, message: 'Trading paused' });
      expect((await t.request('GET', '/api/admin/stats', { token: admin.token })).json.botRunning).toBe(
        false,
      );
      const resumed = await t.request('POST', '/api/admin/trading/resume', { token: admin.token });
      expect(resumed.json).toMatchObject({ isRunning: true, message: 'Trading resumed' });
    });

    it('flatten-all needs the confirmation flag, then squares off through the runtime and audits the count', async () => {
      const flatten = vi.spyOn(t.server.deps.trading, 'flattenAll').mockResolvedValue(2);
      try {
        const unconfirmed = await t.request('POST', '/api/admin/trading/flatten-all', {
          token: admin.token,
          body: {},
        });
        expect(unconfirmed.status).toBe(400);
        expect(unconfirmed.json.field).toBe('confirm');
        expect(flatten).not.toHaveBeenCalled();
        const res = await t.request('POST', '/api/admin/trading/flatten-all', {
          token: admin.token,
          body: { confirm: true },
        });
        expect(res.json).toMatchObject({ success: true, closed: 2 });
        expect(flatten).toHaveBeenCalledTimes(1);
        expect(
          await t.server.deps.db.knex('logs').where('description', 'like', 'Flatten all: 2 open positions%'),
        ).toHaveLength(1);
      } finally {
        flatten.mockRestore();
      }
    });
  });

  it('GET /api/admin/logs pages and filters on the server', async () => {
    const page = await t.request('GET', '/api/admin/logs?pageSize=2&eventType=admin', { token: admin.token });
    expect(page.status).toBe(200);
    expect(page.json.items).toHaveLength(2);
    expect(page.json.total as number).toBeGreaterThanOrEqual(3);
    const items = page.json.items as Array<{ eventType: string; timestamp: string }>;
    expect(items.every((i) => i.eventType === 'admin')).toBe(true);
    expect(items[0]!.timestamp >= items[1]!.timestamp).toBe(true);
    const second = await t.request('GET', '/api/admin/logs?pageSize=2&page=2&eventType=admin', {
      token: admin.token,
    });
    expect((second.json.items as Array<{ id: number }>)[0]?.id).not.toBe(
      (page.json.items as Array<{ id: number }>)[0]?.id,
    );
    expect((await t.request('GET', '/api/admin/logs?pageSize=500', { token: admin.token })).status).toBe(400);
    expect(
      (await t.request('GET', '/api/admin/logs?eventType=nope', { token: admin.token })).json.field,
    ).toBe('eventType');
  });

  it('GET /api/admin/signals filters by type and executed', async () => {
    const calls = await t.request('GET', '/api/admin/signals?type=CALL', { token: admin.token });
    expect(calls.json.total).toBe(2);
    const executed = await t.request('GET', '/api/admin/signals?executed=true', { token: admin.token });
    expect(executed.json.total).toBe(1);
    expect((executed.json.items as Array<{ executed: boolean }>)[0]?.executed).toBe(true);
  });

  it('GET /api/admin/trades filters, searches and totals on the server, with the open trade marked live', async () => {
    // The engine's mark of the open trade (+₹52.00 at the last quote), as the trader's dashboard shows it.
    const mark = vi.spyOn(t.server.deps.trading, 'markPnl').mockImplementation(() => 52);
    const all = await t.request('GET', '/api/admin/trades', { token: admin.token });
    expect(all.json.summary).toEqual({
      total: 3,
      winRate: 50,
      totalPnl: 82,
      totalPnlPaise: 8_200,
      realisedPnl: 30,
      realisedPnlPaise: 3_000,
      openPnl: 52,
      openPnlPaise: 5_200,
      openTrades: 1,
    });
    const items = all.json.items as Array<{
      status: string;
      symbol: string;
      pnl: number | null;
      markPnl: number | null;
      user: { email: string };
    }>;
    expect(items[0]?.user.email).toBe(trader.email);
    const openRow = items.find((i) => i.status === 'open');
    expect(openRow).toMatchObject({ symbol: 'NIFTY17NOV2624000CE', pnl: null, markPnl: 52 });
    expect(items.filter((i) => i.status !== 'open').every((i) => i.markPnl === null)).toBe(true);
    // Only open trades are asked for a mark.
    const openId = (openRow as unknown as { id: number }).id;
    expect(mark.mock.calls.every(([id]) => id === openId)).toBe(true);
    mark.mockRestore();
    const puts = await t.request('GET', '/api/admin/trades?type=PUT', { token: admin.token });
    expect(puts.json.total).toBe(1);
    const open = await t.request('GET', '/api/admin/trades?status=open', { token: admin.token });
    expect(open.json.total).toBe(1);
    const today = await t.request('GET', '/api/admin/trades?period=today', { token: admin.token });
    expect(today.json.total).toBe(2);
    const byEmail = await t.request('GET', '/api/admin/trades?search=ashaov2', { token: admin.token });
    expect(byEmail.json.total).toBe(1);
    expect((await t.request('GET', '/api/admin/trades?period=year', { token: admin.token })).status).toBe(
      400,
    );
  });
});

describe('admin activity periods', () => {
  // A fast simulation runs ahead of the server's clock: here its market is five days ahead, at noon IST (06:30
  // UTC), so "an hour ago" on the market clock is the same IST day whatever the hour this test runs at.
  const wallNow = Date.now();
  const ahead = new Date(wallNow + 5 * DAY);
  const market = Date.UTC(ahead.getUTCFullYear(), ahead.getUTCMonth(), ahead.getUTCDate(), 6, 30);
  let t: TestServer;
  let admin: Caller;
  beforeAll(async () => {
    t = await startTestServer({
      overrides: { trading: { scheduler: createScaledScheduler({ speed: 1, startAt: market }) } },
    });
    admin = await signInFirstAdmin(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes "today" of trades on the market clock they are stamped with, and of logs on the server clock', async () => {
    const trader = await registerTrader(t, 'periods');
    const db = t.server.deps.db.knex;
    const marketToday = await insertTrade(db, trade(trader.id, { opened_at: market - HOUR }));
    await insertTrade(db, trade(trader.id, { opened_at: wallNow - HOUR, symbol: 'NIFTY17NOV2624100CE' }));
    const log = await appendLog(db, { event_type: 'admin', description: 'written on the server clock' });

    const trades = await t.request('GET', '/api/admin/trades?period=today', { token: admin.token });
    expect(trades.status).toBe(200);
    expect((trades.json.items as Array<{ id: number }>).map((i) => i.id)).toEqual([marketToday.id]);
    const logs = await t.request('GET', '/api/admin/logs?period=today&pageSize=100', { token: admin.token });
    expect((logs.json.items as Array<{ id: number }>).map((i) => i.id)).toContain(log.id);
  });
});
