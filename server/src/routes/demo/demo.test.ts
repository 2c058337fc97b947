// The visitors' demo (GET /api/demo, /api/demo/candles): open without a sign-in, read-only, showing only the demo
// account's own paper trades, refused to every write; the demo account can never be signed in and is no customer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUsersResponse, DemoDashboardDto, DemoResponse, TradeDto } from '../../contract';
import { DEMO_EMAIL, findDemoAccountId, keepDemoAccount } from '../../demo/account';
import { SNAPSHOT_TTL_MS } from '../../demo/dashboard';
import { findUserById, getTradingSettings, insertTrade, type NewTrade } from '../../db';
import { openTestDatabase, testDialects } from '../../db/testing';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { mintToken } from '../../testing/accounts';
import { assertNoSecrets, startTestServer, type TestServer } from '../../testing/server';
import { DEMO_BUDGET } from './router';

const HOUR = 3_600_000;

const trade = (userId: number, now: number, overrides: Partial<NewTrade> = {}): NewTrade => ({
  user_id: userId,
  signal_id: null,
  symbol: 'NIFTY17NOV2624000CE',
  instrument: 'NIFTY 24000 CE',
  trade_type: 'CALL',
  option_type: 'CE',
  strike_x100: 2_400_000,
  expiry_at: now + 7 * 24 * HOUR,
  lots: 1,
  quantity: 65,
  entry_price_paise: 12_050,
  stop_loss_paise: 10_050,
  target_paise: 16_050,
  paper: true,
  risk_state: null,
  opened_at: now - HOUR,
  ...overrides,
});

/** Every table's row count: a refused write must leave all of them as they were. */
async function rowCounts(t: TestServer): Promise<Record<string, number>> {
  const db = t.server.deps.db.knex;
  const counts: Record<string, number> = {};
  for (const table of ['users', 'sessions', 'trades', 'orders', 'password_resets', 'trading_settings']) {
    const [row] = (await db(table).count({ n: '*' })) as Array<{ n: number | string }>;
    counts[table] = Number(row?.n ?? 0);
  }
  return counts;
}

describe('the demo when it does not run', () => {
  let t: TestServer;
  beforeAll(async () => {
    // NODE_ENV=test leaves the demo off unless DEMO_ACCOUNT says otherwise.
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('says so, keeps no demo account and serves no chart', async () => {
    const res = await t.request('GET', '/api/demo');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      available: false,
      reason: 'off',
      message: 'The demo dashboard is switched off on this server.',
    });
    expect(await findDemoAccountId(t.server.deps.db.knex)).toBeNull();
    const candles = await t.request('GET', '/api/demo/candles');
    expect(candles.status).toBe(404);
    expect(candles.json.message).toMatch(/does not run/);
    expect((await t.request('GET', '/api/config')).json.demoAvailable).toBe(false);
  });
});

describe.each(testDialects())('the visitors demo (%s)', (dialect) => {
  let t: TestServer;
  let demoId: number;
  let admin: Caller;
  let trader: Caller;
  let traderTradeId: number;

  beforeAll(async () => {
    t = await startTestServer({ dialect, env: { DEMO_ACCOUNT: 'true' } });
    const db = t.server.deps.db.knex;
    const id = await findDemoAccountId(db);
    if (id === null) throw new Error('the server did not keep a demo account');
    demoId = id;
    admin = await signInFirstAdmin(t);
    trader = await registerTrader(t, 'demo-real');
    const now = t.clock.now();
    await db('users')
      .where({ id: trader.id })
      .update({ subscription_status: 'active', subscription_end_at: now + 30 * 24 * HOUR });
    traderTradeId = (await insertTrade(db, trade(trader.id, now, { symbol: 'NIFTY17NOV2623000PE' }))).id;
    const closed = await insertTrade(db, trade(demoId, now, { opened_at: now - 2 * HOUR }));
    await db('trades')
      .where({ id: closed.id })
      .update({ status: 'closed', exit_price_paise: 14_050, pnl_paise: 120_000, closed_at: now - HOUR });
    await insertTrade(
      db,
      trade(demoId, now, { trade_type: 'PUT', option_type: 'PE', symbol: 'NIFTY17NOV2624100PE' }),
    );
    t.clock.advance(SNAPSHOT_TTL_MS);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is kept by the server: subscribed, bot on, paper, with no way to sign in', async () => {
    const db = t.server.deps.db.knex;
    const user = await findUserById(db, demoId);
    expect(user).toMatchObject({ is_demo: true, subscription_status: 'active', disabled_at: null });
    expect(user?.subscription_end_at ?? 0).toBeGreaterThan(t.clock.now() + 365 * 24 * HOUR);
    expect(await getTradingSettings(db, demoId, t.clock.now())).toMatchObject({
      bot_enabled: true,
      mode: 'paper',
    });
    expect(await db('broker_accounts').where({ user_id: demoId }).first()).toBeUndefined();
  });

  it('shows the demo account dashboard to a visitor without a sign-in, and only its own trades', async () => {
    const res = await t.request('GET', '/api/demo');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = res.json as unknown as DemoDashboardDto;
    expect(body).toMatchObject({ available: true, market: 'simulated' });
    // The engine's own verdict: a subscribed paper account whose bot is on is traded.
    expect(body.bot).toEqual({ isRunning: true });
    expect(body.trades.map((tr: TradeDto) => tr.userId)).toEqual([demoId, demoId]);
    expect(body.trades.map((tr) => tr.id)).not.toContain(traderTradeId);
    expect(body.trades.every((tr) => tr.paper)).toBe(true);
    expect(body.stats).toMatchObject({ totalTrades: 1, winRate: 100, totalPnl: 1200 });
    expect(body.feedHealth).toHaveProperty('status');
    expect(Array.isArray(body.candles)).toBe(true);
    // Nothing of the real trader, nor of the demo account's identity, is in the answer.
    for (const leak of [trader.email, 'Asha', 'NIFTY17NOV2623000PE', DEMO_EMAIL, '@']) {
      expect(res.text).not.toContain(leak);
    }
    assertNoSecrets(res.text);
  });

  it('serves the chart history, validating the limit by name', async () => {
    const ok = await t.request('GET', '/api/demo/candles?limit=50');
    expect(ok.status).toBe(200);
    expect(Array.isArray(JSON.parse(ok.text))).toBe(true);
    const bad = await t.request('GET', '/api/demo/candles?limit=5000');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/limit/);
  });

  it('shares one snapshot for a second, then reads again', async () => {
    const db = t.server.deps.db.knex;
    const first = (await t.request('GET', '/api/demo')).json as unknown as DemoDashboardDto;
    const now = t.clock.now();
    const added = await insertTrade(db, trade(demoId, now, { opened_at: now }));
    const same = (await t.request('GET', '/api/demo')).json as unknown as DemoDashboardDto;
    expect(same.generatedAt).toBe(first.generatedAt);
    expect(same.trades.map((tr) => tr.id)).not.toContain(added.id);
    t.clock.advance(SNAPSHOT_TTL_MS);
    const fresh = (await t.request('GET', '/api/demo')).json as unknown as DemoDashboardDto;
    expect(fresh.trades[0]?.id).toBe(added.id);
    await db('trades').where({ id: added.id }).delete();
    t.clock.advance(SNAPSHOT_TTL_MS);
  });

  it('refuses every write method on its routes and changes nothing', async () => {
    const before = await rowCounts(t);
    for (const path of ['/api/demo', '/api/demo/candles']) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await t.request(method, path, { body: { enabled: false } });
        // No route answers them: the API's JSON 404 for an unknown method and path.
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.json.error).toBe('not_found');
      }
    }
    expect(await rowCounts(t)).toEqual(before);
    expect((await getTradingSettings(t.server.deps.db.knex, demoId, t.clock.now())).bot_enabled).toBe(true);
  });

  it('never signs the demo account in, even after someone gave it a password', async () => {
    const db = t.server.deps.db.knex;
    const refused = await t.request('POST', '/api/auth/login', {
      body: { email: DEMO_EMAIL, password: 'Anything123' },
    });
    expect(refused.status).toBe(401);
    // As if an admin had set one: the password verifies, the account is still refused.
    const hash = await t.server.deps.passwords.hash('Known1234');
    const original = (await findUserById(db, demoId))?.password_hash;
    await db('users').where({ id: demoId }).update({ password_hash: hash });
    try {
      const login = await t.request('POST', '/api/auth/login', {
        body: { email: DEMO_EMAIL, password: 'Known1234' },
      });
      expect(login.status).toBe(401);
      expect(login.json.token).toBeUndefined();
    } finally {
      await db('users').where({ id: demoId }).update({ password_hash: original });
    }
  });

  it('honours no session of the demo account on any write route', async () => {
    const { token } = await mintToken(t, demoId);
    const before = await rowCounts(t);
    const writes: Array<[string, string, unknown]> = [
      ['PUT', '/api/user/bot', { enabled: false }],
      ['PUT', '/api/user/trading-settings', { orderType: 'SLM', targetSetting: 20, tradeQuantity: 2 }],
      ['POST', '/api/user/broker', { brokerType: 'zerodha', apiKey: 'k', apiSecret: 's' }],
      ['POST', '/api/payment/create-order', {}],
      ['POST', '/api/auth/change-password', { currentPassword: 'x', newPassword: 'Secret1234' }],
      ['POST', '/api/auth/logout', {}],
    ];
    for (const [method, path, body] of writes) {
      const res = await t.request(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    expect((await t.request('GET', '/api/auth/me', { token })).status).toBe(401);
    // the minted session row is the only difference
    expect({ ...(await rowCounts(t)), sessions: before.sessions }).toEqual(before);
    expect((await getTradingSettings(t.server.deps.db.knex, demoId, t.clock.now())).bot_enabled).toBe(true);
  });

  it('sends no password-reset link for the demo account', async () => {
    const res = await t.request('POST', '/api/auth/request-password-reset', { body: { email: DEMO_EMAIL } });
    expect(res.status).toBe(200);
    expect(res.json.resetLink).toBeUndefined();
    expect(await t.server.deps.db.knex('password_resets').where({ user_id: demoId }).first()).toBeUndefined();
  });

  it('is left out of the admin users list and counts, the overview and the trades page', async () => {
    const users = (await t.request('GET', '/api/admin/users?status=all', { token: admin.token }))
      .json as unknown as AdminUsersResponse;
    expect(users.items.map((u) => u.id)).not.toContain(demoId);
    expect(users.items.map((u) => u.id)).toContain(trader.id);
    const countOfUsers = Number(
      // Customers: admins are not counted either (issue 18 item 6).
      (
        (await t.server.deps.db
          .knex('users')
          .where({ is_demo: false, is_admin: false })
          .count({ n: '*' })) as Array<{
          n: number | string;
        }>
      )[0]?.n,
    );
    expect(users.summary.total).toBe(countOfUsers);
    const stats = (await t.request('GET', '/api/admin/stats', { token: admin.token })).json;
    expect(stats).toMatchObject({ activeUsers: 1, totalTrades: 1 });
    const trades = (await t.request('GET', '/api/admin/trades', { token: admin.token })).json as {
      items: Array<{ id: number; userId: number }>;
      summary: { total: number };
    };
    expect(trades.items.map((tr) => tr.userId)).toEqual([trader.id]);
    expect(trades.summary.total).toBe(1);
    const brokers = (await t.request('GET', '/api/admin/broker-status', { token: admin.token })).json;
    expect(brokers.totalUsers).toBe(countOfUsers);
  });

  it('is rate-limited per address', async () => {
    // Every request of this file came from 127.0.0.1: use up what is left of its budget.
    let last = 0;
    for (let i = 0; i <= DEMO_BUDGET.limit; i++) {
      last = (await t.request('GET', '/api/demo')).status;
      if (last === 429) break;
    }
    expect(last).toBe(429);
    const limited = await t.request('GET', '/api/demo/candles');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe.each(testDialects())('keeping the demo account across restarts and settings (%s)', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ dialect, env: { DEMO_ACCOUNT: 'true' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps one account, and switches its bot off when the demo is off or the feed is live', async () => {
    const deps = t.server.deps;
    const db = deps.db.knex;
    const id = await findDemoAccountId(db);
    expect(await keepDemoAccount({ deps })).toBe(id);
    expect(
      Number(((await db('users').where({ is_demo: true }).count({ n: '*' })) as Array<{ n: number }>)[0]?.n),
    ).toBe(1);

    for (const demo of ['off', 'live_feed'] as const) {
      await keepDemoAccount({ deps: { ...deps, config: { ...deps.config, demo } } });
      expect((await getTradingSettings(db, id ?? 0, t.clock.now())).bot_enabled).toBe(false);
      const answer = await keepDemoAccount({ deps });
      expect(answer).toBe(id);
      expect((await getTradingSettings(db, id ?? 0, t.clock.now())).bot_enabled).toBe(true);
    }
  });

  it('creates one demo account when two starts keep it at the same time', async () => {
    const database = await openTestDatabase(dialect);
    try {
      const deps = { ...t.server.deps, db: database.db };
      const [a, b] = await Promise.all([keepDemoAccount({ deps }), keepDemoAccount({ deps })]);
      expect(a).not.toBeNull();
      expect(b).toBe(a);
      const rows = (await database.db.knex('users').where({ is_demo: true }).select('id')) as unknown[];
      expect(rows).toHaveLength(1);
    } finally {
      await database.cleanup();
    }
  });

  it('explains a live feed to visitors', async () => {
    const { createDemoDashboard } = await import('../../demo/dashboard');
    const deps = t.server.deps;
    const dashboard = createDemoDashboard({ ...deps, config: { ...deps.config, demo: 'live_feed' } });
    const answer: DemoResponse = await dashboard.snapshot();
    expect(answer).toMatchObject({ available: false, reason: 'live_feed' });
    expect(answer.available ? '' : answer.message).toMatch(/live market/);
    expect(dashboard.candles(10)).toBeNull();
  });
});
