// The whole loop on the real simulated feed: a real server (temporary SQLite) with a seeded simulated NIFTY at
// SIM_SPEED 600 (ten virtual minutes per second), real socket.io clients for a trader and an admin. The strategy's
// minimum body and the stop are lowered through admin_controls so signals and exits come within seconds. Asserts
// that paper trades happen only for the eligible user, and that every row a socket event announces is already in
// the database when the event arrives (persist first, then push).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketTickDto, SignalDto, TradeDto } from '@optionpilot/server/contract';
import { registration, startTestServer, type TestServer } from '@optionpilot/server/testing/server';
import { connected, openSocket, type TestSocket } from '@optionpilot/server/testing/socket';
import {
  findSignal,
  findTrade,
  getUserSettings,
  listOrders,
  listTrades,
  saveTradingSettings,
  saveUserSettings,
  setAdminControl,
  updateUser,
  type SignalRow,
  type TradeRow,
} from '@optionpilot/server/db/index';

const DAY = 86_400_000;

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 25_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('trading loop on the simulated feed', () => {
  let t: TestServer;
  const sockets: TestSocket[] = [];
  const ids: Record<'trader' | 'noSubscription' | 'botOff' | 'autoOff', number> = {
    trader: 0,
    noSubscription: 0,
    botOff: 0,
    autoOff: 0,
  };
  // What each event said and what the database held at the moment the client received it.
  const tradeEvents: Array<{ event: TradeDto; row: TradeRow | undefined }> = [];
  const signalEvents: Array<{ event: SignalDto; row: SignalRow | undefined }> = [];
  const ticks: MarketTickDto[] = [];
  let checks: Promise<unknown>[] = [];

  const open = (token: string): Promise<TestSocket> => {
    const socket = openSocket(t.url, token);
    sockets.push(socket);
    return connected(socket);
  };

  beforeAll(async () => {
    t = await startTestServer({ env: { SIM_SPEED: '600', SIM_SEED: '20260105', TICK_BROADCAST_MS: '100' } });
    const knex = t.server.deps.db.knex;
    const tokens: Record<string, string> = {};
    for (const name of Object.keys(ids) as Array<keyof typeof ids>) {
      const res = await t.request('POST', '/api/auth/register', { body: registration(name) });
      ids[name] = (res.json.user as { id: number }).id;
      tokens[name] = res.json.token as string;
    }
    // Listen first, then make the trader eligible: at SIM_SPEED 600 a trade can open within a few hundred ms,
    // and an event sent before the socket connected would be missing from the checks below.
    const admin = await t.request('POST', '/api/init-admin');
    const adminLogin = await t.request('POST', '/api/auth/admin-login', {
      body: { email: admin.json.email, password: admin.json.password },
    });
    const traderSocket = await open(tokens.trader as string);
    const adminSocket = await open(adminLogin.json.token as string);
    traderSocket.on('user:trade', (event) => {
      checks.push(findTrade(knex, event.id).then((row) => tradeEvents.push({ event, row })));
    });
    traderSocket.on('market:tick', (tick) => ticks.push(tick));
    adminSocket.on('admin:signal', (event) => {
      checks.push(findSignal(knex, event.id).then((row) => signalEvents.push({ event, row })));
    });
    const active = { subscription_status: 'active' as const, subscription_end_at: t.clock.now() + 30 * DAY };
    await updateUser(knex, ids.trader, active);
    await updateUser(knex, ids.botOff, active);
    await updateUser(knex, ids.autoOff, active);
    for (const id of [ids.trader, ids.noSubscription, ids.autoOff]) {
      await saveTradingSettings(knex, id, { bot_enabled: true, target_points: 15 });
    }
    await getUserSettings(knex, ids.autoOff);
    await saveUserSettings(knex, ids.autoOff, { auto_trading: false });
    // Smaller candle bodies and a 5-point stop: setups and exits within a few virtual minutes.
    await setAdminControl(knex, 'minMovement', '1', null);
    await setAdminControl(knex, 'stopLoss', '5', null);
    await t.server.deps.trading.reloadControls();
  });

  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    await t.close();
  });

  it('trades the eligible user on paper, persisting each row before its event', async () => {
    await waitFor('a closed paper trade of the eligible user', async () => {
      await Promise.all(checks);
      return tradeEvents.some(({ event }) => event.status === 'closed');
    });
    await Promise.all(checks);
    checks = [];

    const knex = t.server.deps.db.knex;
    const trades = await listTrades(knex, { userId: ids.trader });
    expect(trades.length).toBeGreaterThan(0);
    for (const trade of trades) {
      expect(trade).toMatchObject({ paper: true, instrument: 'NIFTY', lots: 1, quantity: 65 });
      expect(trade.symbol).toMatch(/^NIFTY\d{2}[A-Z]{3}\d{2}\d+(CE|PE)$/);
    }
    const closed = trades.find((trade) => trade.status === 'closed') as TradeRow;
    expect(closed.exit_reason).toMatch(/^(stop_loss|trailing_stop|target)$/);
    expect(closed.pnl_paise).toBe(
      (closed.exit_price_paise as number) * closed.quantity -
        closed.entry_price_paise * closed.quantity -
        closed.charges_paise,
    );
    const orders = await listOrders(knex, { userId: ids.trader });
    expect(orders.filter((o) => o.trade_id === closed.id).map((o) => [o.purpose, o.status])).toEqual(
      expect.arrayContaining([
        ['entry', 'FILLED'],
        ['exit', 'FILLED'],
      ]),
    );

    // Every pushed trade and signal was already in the database, in at least the state the event announced.
    expect(tradeEvents.length).toBeGreaterThanOrEqual(2);
    for (const { event, row } of tradeEvents) {
      expect(row).toBeDefined();
      expect(row?.user_id).toBe(ids.trader);
      if (event.status === 'closed') {
        expect(row).toMatchObject({
          status: 'closed',
          exit_price_paise: Math.round((event.exitPrice ?? 0) * 100),
        });
      }
    }
    expect(signalEvents.length).toBeGreaterThan(0);
    for (const { event, row } of signalEvents) {
      expect(row).toBeDefined();
      if (event.executed) expect(row?.executed).toBe(true);
    }
    expect(signalEvents.some(({ event }) => event.executed)).toBe(true);
  });

  it('never trades for users without a subscription, with the bot off or with auto trading off', async () => {
    const knex = t.server.deps.db.knex;
    for (const userId of [ids.noSubscription, ids.botOff, ids.autoOff]) {
      expect(await listTrades(knex, { userId })).toEqual([]);
      expect(await listOrders(knex, { userId })).toEqual([]);
    }
    const status = await t.server.deps.trading.botStatus(ids.noSubscription);
    expect(status).toMatchObject({ isRunning: false, reason: 'Subscription inactive' });
    expect(await t.server.deps.trading.botStatus(ids.trader)).toMatchObject({
      isRunning: true,
      mode: 'paper',
    });
  });

  it('serves the index and candles over REST and pushes throttled ticks on the market room', async () => {
    const tick = await t.request('GET', '/api/market/nifty50');
    expect(tick.status).toBe(200);
    expect(tick.json).toMatchObject({ symbol: 'NIFTY 50', price: expect.any(Number) });
    expect((tick.json.high as number) >= (tick.json.low as number)).toBe(true);
    const candles = await t.request('GET', '/api/market/candles?interval=1&limit=5');
    expect(candles.status).toBe(200);
    const list = candles.json as unknown as Array<{ time: number; interval: number }>;
    expect(list).toHaveLength(5);
    expect(list.every((c) => c.interval === 1)).toBe(true);
    expect(list.map((c) => c.time)).toEqual([...list.map((c) => c.time)].sort((a, b) => a - b));
    // 600 engine ticks per real second reach clients as at most ~10 per second (TICK_BROADCAST_MS=100).
    expect(ticks.length).toBeGreaterThan(0);
    const times = ticks.map((tk) => Date.parse(tk.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
