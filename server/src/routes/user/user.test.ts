import { createScaledScheduler } from '@optionpilot/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../crypto';
import {
  findBrokerAccountByUser,
  insertStrategy,
  insertTrade,
  listLogs,
  setAdminControl,
  updateUser,
  type NewTrade,
} from '../../db';
import { testDialects } from '../../db/testing';
import { assertNoSecrets, registration, startTestServer, type TestServer } from '../../testing/server';
import { connected, openSocket, type TestSocket } from '../../testing/socket';
import { BROKER_SAVED_MESSAGE } from './router';

// 11:30 IST on Tuesday 6 Jan 2026; "today" (IST) started at 18:30 UTC on 5 Jan.
const NOW = Date.UTC(2026, 0, 6, 6, 0);
const HOUR = 3_600_000;

const trade = (userId: number, overrides: Partial<NewTrade> = {}): NewTrade => ({
  user_id: userId,
  signal_id: null,
  symbol: 'NIFTY06JAN2624000CE',
  instrument: 'NIFTY 24000 CE',
  trade_type: 'CALL',
  option_type: 'CE',
  strike_x100: 2_400_000,
  expiry_at: NOW + 6 * HOUR,
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

describe.each(testDialects())('user API (%s)', (dialect) => {
  let t: TestServer;
  let alice: { token: string; id: number };
  let bob: { token: string; id: number };

  const signUp = async (n: string) => {
    const res = await t.request('POST', '/api/auth/register', { body: registration(n) });
    expect(res.status).toBe(201);
    return { token: res.json.token as string, id: (res.json.user as { id: number }).id };
  };
  const db = () => t.server.deps.db.knex;

  beforeAll(async () => {
    // The engine's clock starts at NOW too: today's P&L is the engine's trading day.
    t = await startTestServer({
      dialect,
      overrides: { trading: { scheduler: createScaledScheduler({ speed: 1, startAt: NOW }) } },
    });
    t.clock.set(NOW);
    alice = await signUp('alice');
    bob = await signUp('bob');
  });
  afterAll(async () => {
    await t.close();
  });

  describe('authentication', () => {
    it.each([
      ['GET', '/api/user/stats'],
      ['GET', '/api/user/trades'],
      ['GET', '/api/user/subscription'],
      ['GET', '/api/user/bot-status'],
      ['PUT', '/api/user/bot'],
      ['GET', '/api/user/trading-settings'],
      ['PUT', '/api/user/trading-settings'],
      ['GET', '/api/user/settings'],
      ['PUT', '/api/user/settings'],
      ['GET', '/api/user/broker'],
      ['POST', '/api/user/broker'],
    ])('%s %s is 401 without a token and with a forged one', async (method, path) => {
      const body = method === 'GET' ? undefined : {};
      const none = await t.request(method, path, { body });
      expect(none.status).toBe(401);
      expect(none.json.error).toBe('unauthenticated');
      const forged = await t.request(method, path, { body, token: 'eyJhbGciOiJIUzI1NiJ9.e30.forged' });
      expect(forged.status).toBe(401);
    });
  });

  describe('GET /api/user/stats and /trades', () => {
    beforeAll(async () => {
      // Alice: a win closed today, a loss closed yesterday (IST), one open position. Bob: a big win today.
      await insertTrade(db(), trade(alice.id, { opened_at: NOW - 30 * HOUR }), NOW - 30 * HOUR).then((row) =>
        db()('trades')
          .where({ id: row.id })
          .update({
            status: 'closed',
            exit_price_paise: 11_000,
            pnl_paise: -50_000,
            closed_at: NOW - 29 * HOUR,
          }),
      );
      await insertTrade(db(), trade(alice.id, { opened_at: NOW - 2 * HOUR }), NOW - 2 * HOUR).then((row) =>
        db()('trades')
          .where({ id: row.id })
          .update({
            status: 'closed',
            exit_price_paise: 16_050,
            pnl_paise: 150_000,
            closed_at: NOW - HOUR,
          }),
      );
      await insertTrade(
        db(),
        trade(alice.id, { opened_at: NOW - 10 * 60_000, trade_type: 'PUT', option_type: 'PE' }),
      );
      await insertTrade(db(), trade(bob.id)).then((row) =>
        db()('trades')
          .where({ id: row.id })
          .update({
            status: 'closed',
            exit_price_paise: 30_000,
            pnl_paise: 999_900,
            closed_at: NOW - HOUR,
          }),
      );
    });

    it("computes the caller's figures only, today's P&L by the IST day, rupees from paise", async () => {
      const res = await t.request('GET', '/api/user/stats', { token: alice.token });
      expect(res.status).toBe(200);
      // Alice's open PUT has no position in the engine of this test (not started), so no open P&L: the realised
      // figures alone (the engine's mark is covered in trading/botBoard.test.ts and the live e2e spec).
      expect(res.json).toEqual({
        todayPnl: 1500,
        todayRealisedPnl: 1500,
        openPnl: 0,
        openTrades: 0,
        totalTrades: 2,
        winRate: 50,
        totalPnl: 1000,
        totalRealisedPnl: 1000,
      });
      const other = await t.request('GET', '/api/user/stats', { token: bob.token });
      expect(other.json).toMatchObject({ todayPnl: 9999, totalTrades: 1, winRate: 100, totalPnl: 9999 });
    });

    it("lists only the caller's trades, newest first, as TradeDto", async () => {
      const res = await t.request('GET', '/api/user/trades', { token: alice.token });
      expect(res.status).toBe(200);
      const trades = res.json as unknown as Array<Record<string, unknown>>;
      expect(trades).toHaveLength(3);
      expect(trades.every((tr) => tr.userId === alice.id)).toBe(true);
      expect(trades.map((tr) => tr.status)).toEqual(['open', 'closed', 'closed']);
      expect(trades[0]).toMatchObject({ tradeType: 'PUT', entryPrice: 120.5, pnl: null, exitPrice: null });
      expect(trades[1]).toMatchObject({ entryPrice: 120.5, exitPrice: 160.5, pnl: 1500, stopLoss: 100.5 });
      expect(Object.keys(trades[0] as object)).not.toContain('risk_state');
    });

    it('filters by ?status= (any case) and caps with ?limit=', async () => {
      const closed = await t.request('GET', '/api/user/trades?status=CLOSED', { token: alice.token });
      expect((closed.json as unknown as unknown[]).length).toBe(2);
      const open = await t.request('GET', '/api/user/trades?status=open&limit=5', { token: alice.token });
      expect((open.json as unknown as Array<{ status: string }>).map((x) => x.status)).toEqual(['open']);
      const one = await t.request('GET', '/api/user/trades?limit=1', { token: alice.token });
      expect((one.json as unknown as Array<{ tradeType: string }>).map((x) => x.tradeType)).toEqual(['PUT']);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['status=won', 'status'],
    ])('refuses ?%s with 400 naming %s', async (query, field) => {
      const res = await t.request('GET', `/api/user/trades?${query}`, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'validation_failed', field });
      expect(res.json.message).toMatch(new RegExp(`^${field}: `));
    });
  });

  describe('GET /api/user/subscription', () => {
    it('shows a new account as pending with the plan price incl. GST', async () => {
      const res = await t.request('GET', '/api/user/subscription', { token: bob.token });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        status: 'pending',
        plan: {
          code: 'monthly',
          name: 'Professional Monthly',
          months: 1,
          pricePaise: 499_900,
          gstPaise: 89_982,
          totalPaise: 589_882,
        },
        startDate: null,
        endDate: null,
        amount: 5898.82,
        amountPaise: 589_882,
        daysLeft: null,
      });
    });

    it('reports expired once the end date has passed, even though the stored status says active', async () => {
      const user = await signUp('expired');
      await updateUser(db(), user.id, {
        subscription_status: 'active',
        subscription_start_at: NOW - 40 * 24 * HOUR,
        subscription_end_at: NOW - 24 * HOUR,
      });
      const res = await t.request('GET', '/api/user/subscription', { token: user.token });
      expect(res.json).toMatchObject({ status: 'expired', daysLeft: 0 });
      const bot = await t.request('GET', '/api/user/bot-status', { token: user.token });
      expect(bot.json).toMatchObject({ isRunning: false });
      expect(bot.json.reason).toMatch(/subscription/i);
    });

    it('counts whole days left of an active subscription', async () => {
      const user = await signUp('active');
      await updateUser(db(), user.id, {
        subscription_status: 'active',
        subscription_start_at: NOW,
        subscription_end_at: NOW + 10 * 24 * HOUR - 1,
      });
      const res = await t.request('GET', '/api/user/subscription', { token: user.token });
      expect(res.json).toMatchObject({ status: 'active', daysLeft: 10 });
    });
  });

  describe('bot switch and bot status', () => {
    let sockets: TestSocket[] = [];
    afterAll(() => {
      for (const s of sockets) s.disconnect();
      sockets = [];
    });

    it('starts off and says why the bot is not running', async () => {
      const res = await t.request('GET', '/api/user/bot-status', { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        isRunning: false,
        enabled: false,
        globalTradingEnabled: true,
        mode: 'paper',
      });
      expect(typeof res.json.reason).toBe('string');
    });

    it('persists PUT /bot, audits it and pushes bot:status to the user room', async () => {
      const user = await signUp('bot');
      await updateUser(db(), user.id, {
        subscription_status: 'active',
        subscription_start_at: NOW,
        subscription_end_at: NOW + 30 * 24 * HOUR,
      });
      const socket = openSocket(t.url, user.token);
      sockets.push(socket);
      await connected(socket);
      const pushed = new Promise<unknown>((resolve) => socket.once('bot:status', resolve));
      const res = await t.request('PUT', '/api/user/bot', { token: user.token, body: { enabled: true } });
      expect(res.status).toBe(200);
      // Whether it runs also depends on the engine (session, feed); the switch itself must be on and pushed.
      expect(res.json).toMatchObject({ enabled: true, globalTradingEnabled: true });
      const { isRunning, reason } = res.json as { isRunning: boolean; reason?: string };
      expect(await pushed).toEqual(reason === undefined ? { isRunning } : { isRunning, reason });
      const again = await t.request('GET', '/api/user/bot-status', { token: user.token });
      expect(again.json).toMatchObject({ enabled: true, isRunning });
      const logs = await listLogs(db(), { userId: user.id });
      expect(logs.map((l) => l.description)).toContain('Algo trading switched on by the user');

      // The controls are read when an admin changes them (the admin route calls reloadControls), never per poll.
      await setAdminControl(db(), 'tradingEnabled', 'false', null);
      const stale = await t.request('GET', '/api/user/bot-status', { token: user.token });
      expect(stale.json).toMatchObject({ globalTradingEnabled: true });
      await t.server.deps.trading.reloadControls();
      const paused = await t.request('GET', '/api/user/bot-status', { token: user.token });
      expect(paused.json).toMatchObject({ isRunning: false, enabled: true, globalTradingEnabled: false });
      await setAdminControl(db(), 'tradingEnabled', 'true', null);
      await t.server.deps.trading.reloadControls();
    });

    it("never pushes one user's bot:status to another socket, not even an admin's", async () => {
      // An admin's dashboard listens to `bot:status` as its own bot's state; another user's status (which carries
      // no user id) must not reach it through the admins room.
      const open = (token: string): Promise<TestSocket> => {
        const socket = openSocket(t.url, token);
        sockets.push(socket);
        return connected(socket);
      };
      const init = await t.request('POST', '/api/init-admin');
      const adminLogin = await t.request('POST', '/api/auth/admin-login', {
        body: { email: init.json.email, password: init.json.password },
      });
      expect(adminLogin.status).toBe(200);
      const user = await signUp('botprivacy');
      const [mine, admin, other] = await Promise.all([
        open(user.token),
        open(adminLogin.json.token as string),
        open(bob.token),
      ]);
      const foreign: unknown[] = [];
      admin.on('bot:status', (s) => foreign.push(s));
      other.on('bot:status', (s) => foreign.push(s));
      const pushed = new Promise<unknown>((resolve) => mine.once('bot:status', resolve));
      expect(
        (await t.request('PUT', '/api/user/bot', { token: user.token, body: { enabled: true } })).status,
      ).toBe(200);
      await pushed;
      // A round trip on each other socket: anything emitted to it before would have arrived first.
      await admin.emitWithAck('sync:request', { topics: ['market'] });
      await other.emitWithAck('sync:request', { topics: ['market'] });
      expect(foreign).toEqual([]);
    });

    it.each([[{}], [{ enabled: 'yes' }], [{ enabled: 1 }]])(
      'refuses %j with 400 naming enabled',
      async (body) => {
        const res = await t.request('PUT', '/api/user/bot', { token: alice.token, body });
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({
          field: 'enabled',
          message: 'enabled: enabled must be true or false',
        });
      },
    );
  });

  describe('trading settings', () => {
    it('creates the defaults on first read: SLM, target 40, 1 lot, with the lot size', async () => {
      const res = await t.request('GET', '/api/user/trading-settings', { token: bob.token });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        orderType: 'SLM',
        targetSetting: 40,
        tradeQuantity: 1,
        lotSize: 65,
        strategyId: null,
      });
      // The built-in strategy is offered, marked as the default.
      expect((res.json.strategies as { isDefault: boolean }[]).filter((s) => s.isDefault)).toHaveLength(1);
    });

    it('lets a trader follow another active strategy, and refuses one that is not offered', async () => {
      const extra = await insertStrategy(db(), {
        code: 'puts-only',
        name: 'Puts only',
        description: 'PUT side of the breakout',
        type: 'PE',
        params: { consecutiveCandles: 3 },
      });
      const off = await insertStrategy(db(), {
        code: 'retired',
        name: 'Retired',
        description: 'x',
        active: false,
      });
      const base = { orderType: 'SLM', targetSetting: 40, tradeQuantity: 1 };
      const chosen = await t.request('PUT', '/api/user/trading-settings', {
        token: bob.token,
        body: { ...base, strategyId: extra.id },
      });
      expect(chosen.status).toBe(200);
      expect(chosen.json).toMatchObject({ strategyId: extra.id });
      expect((chosen.json.strategies as { id: number }[]).map((s) => s.id)).toContain(extra.id);
      const refused = await t.request('PUT', '/api/user/trading-settings', {
        token: bob.token,
        body: { ...base, strategyId: off.id },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.field).toBe('strategyId');
      // Back to the default (null); the row of the refused request changed nothing.
      const back = await t.request('PUT', '/api/user/trading-settings', {
        token: bob.token,
        body: { ...base, strategyId: null },
      });
      expect(back.json).toMatchObject({ strategyId: null });
    });

    it("round-trips a change, and another user's settings stay untouched", async () => {
      const body = { orderType: 'SLM', targetSetting: 25, tradeQuantity: 3 };
      const put = await t.request('PUT', '/api/user/trading-settings', { token: alice.token, body });
      expect(put.status).toBe(200);
      expect(put.json).toMatchObject({ ...body, lotSize: 65 });
      const get = await t.request('GET', '/api/user/trading-settings', { token: alice.token });
      expect(get.json).toMatchObject({ ...body, lotSize: 65 });
      const other = await t.request('GET', '/api/user/trading-settings', { token: bob.token });
      expect(other.json).toMatchObject({ targetSetting: 40, tradeQuantity: 1 });
    });

    it.each([
      [{ targetSetting: 15, tradeQuantity: 1 }, 200],
      [{ targetSetting: 40, tradeQuantity: 10 }, 200],
      [{ targetSetting: 10, tradeQuantity: 1 }, 'targetSetting'],
      [{ targetSetting: 45, tradeQuantity: 1 }, 'targetSetting'],
      [{ targetSetting: 17, tradeQuantity: 1 }, 'targetSetting'],
      [{ targetSetting: 20, tradeQuantity: 0 }, 'tradeQuantity'],
      [{ targetSetting: 20, tradeQuantity: 11 }, 'tradeQuantity'],
      [{ targetSetting: 20, tradeQuantity: 1.5 }, 'tradeQuantity'],
      [{ orderType: 'MARKET', targetSetting: 20, tradeQuantity: 1 }, 'orderType'],
      [{ targetSetting: 20, tradeQuantity: 1, strategyId: 'best' }, 'strategyId'],
      [{ targetSetting: 20, tradeQuantity: 1, strategyId: 999_999 }, 'strategyId'],
    ])('%j → %s', async (partial, expected) => {
      const body = { orderType: 'SLM', ...partial };
      const res = await t.request('PUT', '/api/user/trading-settings', { token: bob.token, body });
      if (expected === 200) {
        expect(res.status).toBe(200);
      } else {
        expect(res.status).toBe(400);
        expect(res.json.field).toBe(expected);
      }
    });
  });

  describe('settings', () => {
    const valid = {
      autoTrading: false,
      maxDailyLoss: 7500,
      tradingHoursStart: '09:30',
      tradingHoursEnd: '14:45',
    };

    it('creates the spec defaults on first read', async () => {
      const res = await t.request('GET', '/api/user/settings', { token: bob.token });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        autoTrading: true,
        maxDailyLoss: 5000,
        tradingHoursStart: '09:15',
        tradingHoursEnd: '15:30',
      });
    });

    it('round-trips every field (max daily loss stored in paise)', async () => {
      const put = await t.request('PUT', '/api/user/settings', { token: alice.token, body: valid });
      expect(put.status).toBe(200);
      expect(put.json).toEqual(valid);
      expect(
        await t.request('GET', '/api/user/settings', { token: alice.token }).then((r) => r.json),
      ).toEqual(valid);
      const row = await db()('user_settings').where({ user_id: alice.id }).first();
      expect(Number(row.max_daily_loss_paise)).toBe(750_000);
      const bot = await t.request('GET', '/api/user/bot-status', { token: alice.token });
      expect(bot.json.isRunning).toBe(false);
    });

    it("ignores the first version's riskLevel: it changed nothing, so it is neither stored nor shown", async () => {
      const before = await db()('user_settings').where({ user_id: alice.id }).first();
      const put = await t.request('PUT', '/api/user/settings', {
        token: alice.token,
        body: { ...valid, riskLevel: before.risk_level === 'high' ? 'low' : 'high' },
      });
      expect(put.status).toBe(200);
      expect(put.json).toEqual(valid);
      const after = await db()('user_settings').where({ user_id: alice.id }).first();
      expect(after.risk_level).toBe(before.risk_level);
    });

    it('ignores the old notification switches: the per-event table replaced them', async () => {
      const put = await t.request('PUT', '/api/user/settings', {
        token: alice.token,
        body: { ...valid, notifications: { push: false, tradeExecution: false } },
      });
      expect(put.status).toBe(200);
      expect(put.json).toEqual(valid);
      const prefs = await db()('notification_preferences').where({ user_id: alice.id });
      expect(prefs).toEqual([]);
    });

    it.each([
      [{ maxDailyLoss: 499 }, 'maxDailyLoss'],
      [{ maxDailyLoss: 1_000_001 }, 'maxDailyLoss'],
      [{ maxDailyLoss: 5000.5 }, 'maxDailyLoss'],
      [{ tradingHoursStart: '9:15' }, 'tradingHoursStart'],
      [{ tradingHoursEnd: '24:00' }, 'tradingHoursEnd'],
      [{ tradingHoursStart: '15:00', tradingHoursEnd: '10:00' }, 'tradingHoursEnd'],
      [{ autoTrading: 'on' }, 'autoTrading'],
    ])('refuses %j with 400 naming %s', async (partial, field) => {
      const res = await t.request('PUT', '/api/user/settings', {
        token: bob.token,
        body: { ...valid, ...partial },
      });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'validation_failed', field });
      const unchanged = await t.request('GET', '/api/user/settings', { token: bob.token });
      expect(unchanged.json.maxDailyLoss).toBe(5000);
    });
  });

  describe('broker credentials', () => {
    const apiKey = 'kite_api_key_ABCD1234wxyz';
    const apiSecret = 'SuperSecretBrokerValue-9f8e7d6c';

    it('has no broker before credentials are saved', async () => {
      const res = await t.request('GET', '/api/user/broker', { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.text).toBe('null');
    });

    it('seals the credentials, answers masked and never returns or logs the secret', async () => {
      const res = await t.request('POST', '/api/user/broker', {
        token: alice.token,
        body: { brokerType: ' Grow ', apiKey, apiSecret },
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        success: true,
        message: BROKER_SAVED_MESSAGE,
        broker: {
          brokerType: 'groww',
          apiKeyMasked: '••••wxyz',
          status: 'credentials_saved',
          connected: false,
        },
        user: { id: alice.id, brokerType: 'groww', brokerConnected: false },
      });
      for (const leak of [apiSecret, apiKey, 'api_secret_enc', 'api_key_enc', 'v1:'])
        expect(res.text).not.toContain(leak);
      assertNoSecrets(res.text);

      const row = await findBrokerAccountByUser(db(), alice.id);
      expect(row?.api_secret_enc).not.toContain(apiSecret);
      const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
      expect(box.open(row?.api_secret_enc ?? '')).toBe(apiSecret);
      expect(box.open(row?.api_key_enc ?? '')).toBe(apiKey);

      const get = await t.request('GET', '/api/user/broker', { token: alice.token });
      expect(get.json).toMatchObject({ brokerType: 'groww', apiKeyMasked: '••••wxyz' });
      expect(get.text).not.toContain(apiSecret);

      const logs = await listLogs(db(), { userId: alice.id });
      const audit = logs.find((l) => l.description === 'Broker credentials saved (groww)');
      expect(audit).toBeDefined();
      for (const l of logs) {
        expect(`${l.description} ${l.data ?? ''}`).not.toContain(apiSecret);
        expect(`${l.description} ${l.data ?? ''}`).not.toContain(apiKey);
      }
      expect(t.logs.join('\n')).not.toContain(apiSecret);
    });

    it("stores upstokes as upstox and does not show one user's broker to another", async () => {
      const res = await t.request('POST', '/api/user/broker', {
        token: bob.token,
        body: { brokerType: 'upstokes', apiKey: 'short', apiSecret: 's' },
      });
      expect(res.status).toBe(200);
      expect(res.json.broker).toMatchObject({ brokerType: 'upstox', apiKeyMasked: '••••' });
      const alices = await t.request('GET', '/api/user/broker', { token: alice.token });
      expect(alices.json.brokerType).toBe('groww');
    });

    it.each([
      [{ brokerType: 'zerodha', apiKey: 'k' }, 'apiSecret', 'apiSecret: apiSecret is required'],
      [
        { brokerType: 'zerodha', apiKey: 'k', apiSecret: '   ' },
        'apiSecret',
        'apiSecret: Please fill in all broker credentials including API secret',
      ],
      [{ brokerType: 'robinhood', apiKey: 'k', apiSecret: 's' }, 'brokerType', undefined],
      [{ apiKey: 'k', apiSecret: 's' }, 'brokerType', undefined],
    ])('refuses %j with 400 naming %s', async (body, field, message) => {
      const res = await t.request('POST', '/api/user/broker', { token: alice.token, body });
      expect(res.status).toBe(400);
      expect(res.json.field).toBe(field);
      if (message) expect(res.json.message).toBe(message);
    });
  });
});
