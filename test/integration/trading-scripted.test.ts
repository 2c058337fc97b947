// The trading loop inside a real server, driven by a scripted feed on a virtual clock: the exact ticks of a CALL
// setup and the option premiums are chosen by the test, so each case is deterministic (which signal, which strike,
// which stop). A virtual clock (engine's VirtualTime) instead of a fast real clock because the case needs to place
// a price at a precise instant relative to candle closes. Covers: a paper trade for an eligible user; none when
// trading is paused globally or the side is disabled; an admin pause over HTTP that stops entries at once while the
// open position still exits; an expired subscription (no new entry, the open position exits); restart of a server on the same DATA_DIR keeps the stop and
// high-water mark and still exits at the stop.
import { afterEach, describe, expect, it } from 'vitest';
import {
  listOrders,
  listSignals,
  listTrades,
  setAdminControl,
  updateUser,
  type TradeRow,
} from '@optionpilot/server/db/index';
import { expireDueSubscriptions } from '@optionpilot/server/subscriptions/expiry';
import { signInFirstAdmin } from '@optionpilot/server/testing/admin';
import { jsonClient } from '@optionpilot/server/testing/server';
import {
  addUser,
  callSetup,
  closeHarnesses,
  dataDir,
  MINUTE,
  startHarness,
  SYMBOL,
  T0,
} from './scriptedServer';

afterEach(closeHarnesses);

describe('trading loop on a scripted feed', () => {
  it('buys CE ATM−1 of the weekly expiry for an eligible user only, with orders, audit rows and the stop', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100);
    const trader = await addUser(h, 'trader', true);
    const idle = await addUser(h, 'idle', false);
    await callSetup(h);

    const knex = h.server.deps.db.knex;
    const [signal] = await listSignals(knex);
    expect(signal).toMatchObject({ type: 'CALL', executed: true, entry_trigger_x100: 2_403_200 });
    const trades = await listTrades(knex);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      user_id: trader,
      signal_id: signal?.id,
      symbol: SYMBOL,
      option_type: 'CE',
      strike_x100: 2_400_000,
      lots: 1,
      quantity: 65,
      // The paper broker buys one tick above the ask (PAPER_SLIPPAGE, as backtests do).
      entry_price_paise: 10_005,
      stop_loss_paise: 8_005,
      target_paise: 14_005,
      status: 'open',
      paper: true,
    });
    expect(await listTrades(knex, { userId: idle })).toEqual([]);
    const [entry] = await listOrders(knex, { userId: trader });
    expect(entry).toMatchObject({
      purpose: 'entry',
      side: 'BUY',
      status: 'FILLED',
      signal_id: signal?.id,
      trade_id: trades[0]?.id,
      broker: 'paper',
      tag: 'OPTIONPILOT',
    });
    const events = await knex('order_events').where({ order_id: entry?.id }).orderBy('id');
    expect(events.map((e: { event_type: string }) => e.event_type)).toEqual(
      expect.arrayContaining(['CREATED', 'SUBMITTED', 'FILLED']),
    );
    const logs = await knex('logs').where({ user_id: trader }).select('event_type');
    expect(logs.map((l: { event_type: string }) => l.event_type)).toEqual(
      expect.arrayContaining(['order', 'trade']),
    );

    // Target 40 points: at 141 the position closes with the target reason, selling one tick below the bid, and
    // net P&L after charges.
    await h.premium(140);
    expect((await listTrades(knex, { userId: trader }))[0]?.status).toBe('open');
    await h.premium(141);
    const [closed] = await listTrades(knex, { userId: trader });
    expect(closed).toMatchObject({ status: 'closed', exit_reason: 'target', exit_price_paise: 14_095 });
    expect((closed as TradeRow).charges_paise).toBeGreaterThan(0);
    expect((closed as TradeRow).pnl_paise).toBe((14_095 - 10_005) * 65 - (closed as TradeRow).charges_paise);
    expect(h.feed.symbols.has(SYMBOL)).toBe(false);
  });

  it('records but does not trade a setup while trading is paused globally', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100);
    await addUser(h, 'trader', true);
    await setAdminControl(h.server.deps.db.knex, 'tradingEnabled', 'false', null);
    await h.server.deps.trading.reloadControls();
    expect((await h.server.deps.trading.botStatus(1)).reason).toBe('Trading paused by admin');
    await callSetup(h);
    const knex = h.server.deps.db.knex;
    const signals = await listSignals(knex);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({ executed: false, skipped_reason: expect.stringMatching(/disabled/) });
    expect(await listTrades(knex)).toEqual([]);
    expect(await listOrders(knex)).toEqual([]);
  });

  it('an admin pause over HTTP stops the next entry at once while the open position still exits; resume trades again', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100);
    const knex = h.server.deps.db.knex;
    const first = await addUser(h, 'first', true);
    await callSetup(h);
    expect(h.server.deps.trading.openPositions().map((p) => p.accountId)).toEqual([String(first)]);
    const second = await addUser(h, 'second', true);

    const api = { request: jsonClient(h.server.url) };
    const admin = await signInFirstAdmin(api);
    const paused = await api.request('POST', '/api/admin/trading/pause', { token: admin.token });
    expect(paused.json).toMatchObject({ success: true, isRunning: false });
    // No reload, no wait: the reply comes after the running runtime took the change.
    expect((await h.server.deps.trading.botStatus(second)).reason).toBe('Trading paused by admin');

    await callSetup(h, 10, 24_100);
    const signals = await listSignals(knex);
    expect(signals).toHaveLength(2);
    expect(signals.filter((s) => s.executed)).toHaveLength(1);
    expect(await listTrades(knex, { userId: second })).toEqual([]);

    // The paused bot still manages the open position: below the stop (entry 100.05 − 20) it exits.
    await h.premium(79);
    const [exited] = await listTrades(knex, { userId: first });
    expect(exited).toMatchObject({ status: 'closed', exit_reason: 'stop_loss' });
    expect(h.server.deps.trading.openPositions()).toEqual([]);

    const resumed = await api.request('POST', '/api/admin/trading/resume', { token: admin.token });
    expect(resumed.json).toMatchObject({ success: true, isRunning: true });
    await h.premium(100);
    await callSetup(h, 20, 24_200);
    const open = h.server.deps.trading.openPositions().map((p) => p.accountId);
    expect(open.sort()).toEqual([String(first), String(second)].sort());
    expect(await listTrades(knex, { userId: second })).toHaveLength(1);
  });

  it('an expired subscription takes no new entry while its open position still exits at the stop', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100);
    const knex = h.server.deps.db.knex;
    const trader = await addUser(h, 'lapsing', true);
    await callSetup(h);
    expect(h.server.deps.trading.openPositions().map((p) => p.accountId)).toEqual([String(trader)]);

    // The end date passes; the subscription job's next run (here called directly) expires it and tells trading.
    await updateUser(knex, trader, { subscription_end_at: h.server.deps.clock.now() - 60_000 });
    const expired = await expireDueSubscriptions({
      deps: h.server.deps,
      onUserChanged: (id) => h.server.deps.trading.onUserChanged(id),
    });
    expect(expired).toEqual([trader]);
    expect(await h.server.deps.trading.botStatus(trader)).toMatchObject({
      isRunning: false,
      reason: expect.stringMatching(/subscription/i),
    });

    await callSetup(h, 10, 24_100);
    expect(await listTrades(knex, { userId: trader })).toHaveLength(1);
    // Still managed to its exit: below the stop (entry 100.05 − 20) it closes.
    await h.premium(79);
    const [exited] = await listTrades(knex, { userId: trader });
    expect(exited).toMatchObject({ status: 'closed', exit_reason: 'stop_loss' });
    expect(h.server.deps.trading.openPositions()).toEqual([]);
  });

  it('does not trade a CALL setup while CALL is disabled', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100);
    await addUser(h, 'trader', true);
    await setAdminControl(h.server.deps.db.knex, 'callEnabled', 'false', null);
    await h.server.deps.trading.reloadControls();
    await callSetup(h);
    const knex = h.server.deps.db.knex;
    expect(await listSignals(knex)).toEqual([]);
    expect(await listTrades(knex)).toEqual([]);
    expect(await listOrders(knex)).toEqual([]);
  });

  it('resumes an open position after a restart with the same stop and high-water mark, and exits at the stop', async () => {
    const dir = dataDir();
    const first = await startHarness(dir, T0 - 1_000, 100);
    const trader = await addUser(first, 'trader', true);
    const admin = await addUser(first, 'ops', false);
    await first.server.deps.db.knex('users').where({ id: admin }).update({ is_admin: true });
    await callSetup(first);
    // +25 points: the stop moves to cost and trails the high by 20 → 105.
    await first.premium(125);
    await first.premium(118);
    const before = first.server.deps.trading.openPositions()[0]?.risk;
    expect(before).toMatchObject({ stopPrice: 105, highWater: 125, targetPrice: 140.05 });
    await first.server.close();

    // A new server on the same DATA_DIR, later, with the premium above the stop.
    const second = await startHarness(dir, T0 + 10 * MINUTE, 110);
    const [stored] = await listTrades(second.server.deps.db.knex, { userId: trader });
    expect(JSON.parse((stored as TradeRow).risk_state ?? '{}')).toMatchObject({
      stopPrice: 105,
      highWater: 125,
    });
    expect((stored as TradeRow).stop_loss_paise).toBe(10_500);
    const resumed = second.server.deps.trading.openPositions();
    expect(resumed).toHaveLength(1);
    expect(resumed[0]?.risk).toMatchObject({ stopPrice: 105, highWater: 125, entryPrice: 100.05 });
    expect(second.feed.symbols.has(SYMBOL)).toBe(true);

    await second.premium(104);
    const [closed] = await listTrades(second.server.deps.db.knex, { userId: trader });
    expect(closed).toMatchObject({
      status: 'closed',
      exit_reason: 'trailing_stop',
      exit_price_paise: 10_395,
    });
    expect(second.server.deps.trading.openPositions()).toEqual([]);

    // Notices: the trader's open and close, through the runtime's own writes; the admins' restart with a position.
    const events = async (userId: number) =>
      (
        (await second.server.deps.db
          .knex('notification_outbox')
          .where({ user_id: userId })
          .orderBy('id')
          .select('event')) as Array<{ event: string }>
      ).map((r) => r.event);
    expect(await events(trader)).toEqual(['trade_opened', 'trade_closed']);
    await expect.poll(() => events(admin)).toEqual(['restart_with_open_positions']);
  });
});
