import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrokerRegistry } from '../../brokers/registry';
import {
  FAKE_RAW_BROKER_TEXT,
  FAKE_SESSION_TTL_MS,
  fakeBrokerModule,
  type FakeBrokerModule,
} from '../../brokers/testing/fakeBrokerModule';
import { BROKER_ERROR_MESSAGES } from '../../brokers/types';
import { LIVE_RISK_DISCLOSURE } from '../../contract';
import { findBrokerAccountByUser, getTradingSettings } from '../../db';
import { testDialects } from '../../db/testing';
import { startBrokerTestApp, type BrokerTestApp } from '../../testing/brokerApp';
import { assertNoSecrets, registration, startTestServer, type TestServer } from '../../testing/server';

// 11:30 IST on Tuesday 6 Jan 2026.
const NOW = Date.UTC(2026, 0, 6, 6, 0);
const EGRESS_IP = '203.0.113.77';
const API_KEY = 'kiteapikey123';
const API_SECRET = 'kite-secret-value-xyz';

describe.each(testDialects())('broker connection API (%s)', (dialect) => {
  let t: TestServer;
  let app: BrokerTestApp;
  let fake: FakeBrokerModule;
  let angel: FakeBrokerModule;
  let alice: { token: string; id: number };
  let bob: { token: string; id: number };

  const call = async (method: string, path: string, opts: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as Record<string, unknown> };
  };
  const signUp = async (n: string) => {
    const res = await t.request('POST', '/api/auth/register', { body: registration(n) });
    expect(res.status).toBe(201);
    return { token: res.json.token as string, id: (res.json.user as { id: number }).id };
  };
  const signInAgain = async (n: string) => {
    const res = await t.request('POST', '/api/auth/login', {
      body: { email: registration(n).email, password: registration(n).password },
    });
    expect(res.status).toBe(200);
    return res.json.token as string;
  };
  const saveCredentials = async (token: string, brokerType = 'zerodha') => {
    const res = await t.request('POST', '/api/user/broker', {
      token,
      body: { brokerType, apiKey: API_KEY, apiSecret: API_SECRET },
    });
    expect(res.status).toBe(200);
  };
  const connect = async (token: string) => {
    const res = await call('POST', '/api/user/broker/connect', { token, body: {} });
    expect(res.status).toBe(200);
    const loginUrl = new URL(res.json.loginUrl as string);
    return { loginUrl, state: loginUrl.searchParams.get('state') ?? '' };
  };
  const callback = (token: string, query: Record<string, string>, broker = 'zerodha') =>
    call('POST', '/api/user/broker/callback', { token, body: { broker, query } });
  const db = () => t.server.deps.db.knex;

  beforeAll(async () => {
    t = await startTestServer({
      dialect,
      env: {
        // the trader's sign-in outlives the broker session the tests let lapse
        JWT_TTL: '7d',
        EGRESS_IP,
        KITE_LOGIN_URL: 'http://127.0.0.1:9/connect/login',
        PUBLIC_URL: 'https://op.example.in',
      },
    });
    t.clock.set(NOW);
    const registry = createBrokerRegistry({
      endpoints: { ...t.config.brokerEndpoints, angelone: t.config.brokerEndpoints.zerodha },
      algoTag: t.config.algoTag,
      now: () => t.clock.now(),
      factories: [
        {
          type: 'zerodha',
          create: (c) => {
            fake = fakeBrokerModule(c, { label: 'Zerodha' });
            return fake;
          },
        },
        {
          type: 'angelone',
          create: (c) => {
            angel = fakeBrokerModule(c, { type: 'angelone', label: 'Angel One', form: true });
            return angel;
          },
        },
      ],
    });
    app = await startBrokerTestApp(t.server.deps, registry);
    alice = await signUp('alice');
    bob = await signUp('bob');
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  describe('authentication and authorization', () => {
    it.each([
      ['POST', '/api/user/broker/connect'],
      ['POST', '/api/user/broker/callback'],
      ['POST', '/api/user/broker/login'],
      ['POST', '/api/user/broker/resume'],
      ['DELETE', '/api/user/broker/session'],
      ['GET', '/api/user/trading-mode'],
      ['PUT', '/api/user/trading-mode'],
    ])('%s %s is 401 without a token and with a forged one', async (method, path) => {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      expect((await call(method, path, { body })).status).toBe(401);
      const forged = await call(method, path, { body, token: 'eyJhbGciOiJIUzI1NiJ9.e30.forged' });
      expect(forged.status).toBe(401);
      expect(forged.json.error).toBe('unauthenticated');
    });

    it('lists brokers publicly: registered ones available, the rest coming soon, with the egress IP', async () => {
      const res = await call('GET', '/api/brokers');
      expect(res.status).toBe(200);
      const brokers = res.json.brokers as Array<{ type: string; available: boolean }>;
      expect(brokers.filter((b) => b.available).map((b) => b.type)).toEqual(['zerodha', 'angelone']);
      expect(brokers.find((b) => b.type === 'groww')?.available).toBe(false);
      expect(res.json.egressIp).toBe(EGRESS_IP);
    });
  });

  describe('invalid input changes nothing', () => {
    it('Connect without saved credentials is a 400 naming brokerType', async () => {
      const res = await call('POST', '/api/user/broker/connect', { token: bob.token, body: {} });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/^brokerType: save your broker API key/);
    });

    it('Connect refuses unexpected fields', async () => {
      await saveCredentials(alice.token);
      const res = await call('POST', '/api/user/broker/connect', {
        token: alice.token,
        body: { state: 'mine' },
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('validation_failed');
      expect(await db()('broker_oauth_states').where({ user_id: alice.id })).toHaveLength(0);
    });

    it.each([
      [{ query: { state: 'x' } }, 'broker'],
      [{ broker: 'nobroker', query: { state: 'x' } }, 'broker'],
      [{ broker: 'zerodha', query: { state: 5 } }, 'query.state'],
      [{ broker: 'zerodha', query: 'state=x' }, 'query'],
    ])('callback body %j is a 400 naming %s', async (body, field) => {
      const res = await call('POST', '/api/user/broker/callback', { token: alice.token, body });
      expect(res.status).toBe(400);
      expect(res.json.field).toBe(field);
      expect(fake.logins).toHaveLength(0);
    });

    it.each([
      [{ mode: 'real' }, 'mode'],
      [{ mode: 'live' }, 'acceptRisk'],
      [{ mode: 'live', acceptRisk: 'yes' }, 'acceptRisk'],
    ])('trading-mode body %j is a 400 naming %s', async (body, field) => {
      const res = await call('PUT', '/api/user/trading-mode', { token: alice.token, body });
      expect(res.status).toBe(400);
      expect(res.json.field).toBe(field);
      expect((await getTradingSettings(db(), alice.id, NOW)).mode).toBe('paper');
    });

    it('a broker without an adapter cannot be connected (coming soon)', async () => {
      const carol = await signUp('carol');
      await saveCredentials(carol.token, 'grow');
      const res = await call('POST', '/api/user/broker/connect', { token: carol.token, body: {} });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/groww is coming soon/);
    });
  });

  describe('lifecycle', () => {
    beforeAll(async () => {
      await saveCredentials(alice.token);
    });

    it('Connect sends the browser to the broker with a fresh state and the callback URL', async () => {
      const first = await connect(alice.token);
      const second = await connect(alice.token);
      expect(first.loginUrl.origin + first.loginUrl.pathname).toBe('http://127.0.0.1:9/connect/login');
      expect(first.loginUrl.searchParams.get('api_key')).toBe(API_KEY);
      expect(first.loginUrl.searchParams.get('redirect_uri')).toBe(
        'https://op.example.in/broker/zerodha/callback',
      );
      expect(first.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second.state).not.toBe(first.state);
    });

    it('a state from another session, another trader or an admin is refused and stays usable by its owner', async () => {
      const { state } = await connect(alice.token);
      const aliceElsewhere = await signInAgain('alice');
      await saveCredentials(bob.token);
      for (const token of [aliceElsewhere, bob.token]) {
        const res = await callback(token, { state, code: 'good' });
        expect(res.status).toBe(400);
        expect(res.json.error).toBe('broker_login_invalid');
      }
      const init = await t.request('POST', '/api/init-admin');
      const admin = await t.request('POST', '/api/auth/admin-login', {
        body: { email: init.json.email, password: init.json.password },
      });
      const byAdmin = await callback(admin.json.token as string, { state, code: 'good' });
      expect(byAdmin.status).toBe(400);
      expect(fake.logins).toHaveLength(0);

      const own = await callback(alice.token, { state, code: 'good' });
      expect(own.status).toBe(200);
    });

    it('completes the login: token sealed with its expiry, account name shown, never the token', async () => {
      const { state } = await connect(alice.token);
      const changedBefore = app.changed.length;
      const res = await callback(alice.token, { state, code: 'good' });
      expect(res.status).toBe(200);
      expect(fake.logins.at(-1)).toEqual({
        apiKey: API_KEY,
        apiSecret: API_SECRET,
        code: 'good',
        redirectUri: 'https://op.example.in/broker/zerodha/callback',
      });
      expect(res.json.broker).toMatchObject({
        session: 'connected',
        connected: true,
        accountName: 'Asha Rao',
        apiKeyMasked: '••••y123',
        tokenExpiresAt: new Date(NOW + FAKE_SESSION_TTL_MS).toISOString(),
      });
      expect(app.changed.slice(changedBefore)).toEqual([alice.id]);

      const row = await findBrokerAccountByUser(db(), alice.id);
      expect(row?.access_token_enc).toMatch(/^v1:/);
      expect(row?.access_token_enc).not.toContain(`access-token-of-${API_KEY}`);
      const view = await t.request('GET', '/api/user/broker', { token: alice.token });
      const me = await t.request('GET', '/api/auth/me', { token: alice.token });
      expect(view.json.session).toBe('connected');
      expect(me.json).toMatchObject({ brokerConnected: true, brokerType: 'zerodha' });
      for (const text of [res.text, view.text, me.text, t.logs.join('\n')]) {
        expect(text).not.toContain('access-token-of');
        expect(text).not.toContain(API_SECRET);
        assertNoSecrets(text);
      }
    });

    it('a state is single use and expires after 10 minutes', async () => {
      const used = await connect(alice.token);
      expect((await callback(alice.token, { state: used.state, code: 'good' })).status).toBe(200);
      expect((await callback(alice.token, { state: used.state, code: 'good' })).json.error).toBe(
        'broker_login_invalid',
      );

      const stale = await connect(alice.token);
      t.clock.advance(10 * 60_000 + 1);
      const late = await callback(alice.token, { state: stale.state, code: 'good' });
      expect(late.status).toBe(400);
      expect(late.json.error).toBe('broker_login_invalid');
      t.clock.set(NOW);
    });

    it('a state issued for one broker is refused on another broker callback', async () => {
      const { state } = await connect(alice.token);
      const res = await callback(alice.token, { state, code: 'good' }, 'upstox');
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('broker_login_invalid');
    });

    it('the session lapses at its expiry: card "Session expired", brokerConnected false, Live unavailable', async () => {
      const { state } = await connect(alice.token);
      expect((await callback(alice.token, { state, code: 'good' })).status).toBe(200);
      t.clock.set(NOW + FAKE_SESSION_TTL_MS);
      const view = await t.request('GET', '/api/user/broker', { token: alice.token });
      const me = await t.request('GET', '/api/auth/me', { token: alice.token });
      expect(view.json).toMatchObject({ session: 'expired', connected: false, accountName: 'Asha Rao' });
      expect(me.json.brokerConnected).toBe(false);
      const mode = await call('PUT', '/api/user/trading-mode', {
        token: alice.token,
        body: { mode: 'live', acceptRisk: true },
      });
      expect(mode.status).toBe(409);
      expect(mode.json.error).toBe('broker_not_connected');
      t.clock.set(NOW);
    });

    it.each(['ip_not_allowed', 'rejected', 'auth_expired', 'network'] as const)(
      'a %s failure reaches the trader as the fixed message, never the broker text',
      async (kind) => {
        const { state } = await connect(alice.token);
        const res = await callback(alice.token, { state, code: `fail:${kind}` });
        expect(res.status).toBe(502);
        expect(res.json.error).toBe('broker_failed');
        expect(res.json.message).toContain(BROKER_ERROR_MESSAGES[kind]);
        if (kind === 'ip_not_allowed') expect(res.json.message).toContain(EGRESS_IP);
        const view = await t.request('GET', '/api/user/broker', { token: alice.token });
        expect(view.json).toMatchObject({ session: 'not_connected', connected: false, status: 'error' });
        expect(view.json.lastError).toBe(res.json.message);
        for (const text of [res.text, view.text, t.logs.join('\n')])
          expect(text).not.toContain(FAKE_RAW_BROKER_TEXT);
      },
    );

    it('an unexpected failure is shown as the network message', async () => {
      const { state } = await connect(alice.token);
      const res = await callback(alice.token, { state, code: 'surprise' });
      expect(res.status).toBe(502);
      expect(res.json.message).toBe(BROKER_ERROR_MESSAGES.network);
    });
  });

  describe('paper / live', () => {
    it('Live needs a valid session and the accepted disclosure; disconnect makes trades paper again', async () => {
      const before = await call('GET', '/api/user/trading-mode', { token: alice.token });
      expect(before.json).toMatchObject({ mode: 'paper', effectiveMode: 'paper', liveAvailable: false });
      expect(before.json.riskDisclosure).toBe(LIVE_RISK_DISCLOSURE);

      const { state } = await connect(alice.token);
      expect((await callback(alice.token, { state, code: 'good' })).status).toBe(200);
      const live = await call('PUT', '/api/user/trading-mode', {
        token: alice.token,
        body: { mode: 'live', acceptRisk: true },
      });
      expect(live.status).toBe(200);
      expect(live.json).toMatchObject({ mode: 'live', liveAvailable: true });
      // Effective is what the engine really does for the user (its bot status), never just the stored choice.
      const engine = await t.request('GET', '/api/user/bot-status', { token: alice.token });
      expect(live.json.effectiveMode).toBe(engine.json.mode);
      expect((await getTradingSettings(db(), alice.id, NOW)).mode).toBe('live');

      const off = await call('DELETE', '/api/user/broker/session', { token: alice.token });
      expect(off.status).toBe(200);
      expect(off.json.broker).toMatchObject({ session: 'not_connected', accountName: null });
      const after = await call('GET', '/api/user/trading-mode', { token: alice.token });
      expect(after.json).toMatchObject({ mode: 'live', effectiveMode: 'paper', liveAvailable: false });
      expect(app.changed.at(-1)).toBe(alice.id);

      const paper = await call('PUT', '/api/user/trading-mode', {
        token: alice.token,
        body: { mode: 'paper' },
      });
      expect(paper.json).toMatchObject({ mode: 'paper', effectiveMode: 'paper' });
    });

    it('Disconnect without a saved broker is a 404', async () => {
      const dave = await signUp('dave');
      const res = await call('DELETE', '/api/user/broker/session', { token: dave.token });
      expect(res.status).toBe(404);
    });
  });

  describe('form login (client code, MPIN, TOTP)', () => {
    const MPIN = '4817';
    const TOTP = '605311';
    let dev: { token: string; id: number };
    const login = (token: string, fields: unknown) =>
      call('POST', '/api/user/broker/login', { token, body: { fields } });
    beforeAll(async () => {
      dev = await signUp('dev');
      await saveCredentials(dev.token, 'angelone');
    });

    it.each([
      [{ clientCode: 'A1234', mpin: '12', totp: TOTP }, 'fields.mpin'],
      [{ clientCode: 'A1234', mpin: MPIN }, 'fields.totp'],
      [{ clientCode: 'a b', mpin: MPIN, totp: TOTP }, 'fields.clientCode'],
      [{ clientCode: 'A1234', mpin: MPIN, totp: TOTP, password: 'x' }, 'fields.password'],
      ['A1234', 'fields'],
    ])('fields %j is a 400 naming %s, and nothing reaches the broker', async (fields, field) => {
      const before = angel.logins.length;
      const res = await login(dev.token, fields);
      expect(res.status).toBe(400);
      expect(res.json.field).toBe(field);
      expect(angel.logins).toHaveLength(before);
    });

    it('a redirect-login broker refuses a form login; a form broker with a redirect login still has Connect', async () => {
      const res = await login(alice.token, { clientCode: 'A1234', mpin: MPIN, totp: TOTP });
      expect(res.status).toBe(400);
      expect(res.json.field).toBe('brokerType');
      const connect = await call('POST', '/api/user/broker/connect', { token: dev.token, body: {} });
      expect(connect.status).toBe(200);
    });

    it('a refused login stores the fixed text only', async () => {
      const res = await login(dev.token, { clientCode: 'A1234', mpin: MPIN, totp: '000000' });
      expect(res.status).toBe(502);
      expect(res.json.message).toBe(BROKER_ERROR_MESSAGES.rejected);
      expect(res.text).not.toContain(FAKE_RAW_BROKER_TEXT);
    });

    it('logs in with the typed values, which are never stored or logged', async () => {
      const res = await login(dev.token, { clientCode: 'A1234', mpin: MPIN, totp: TOTP });
      expect(res.status).toBe(200);
      expect(res.json.broker).toMatchObject({
        brokerType: 'angelone',
        session: 'connected',
        accountName: 'Asha Rao',
      });
      expect(angel.logins.at(-1)?.values).toEqual({ clientCode: 'A1234', mpin: MPIN, totp: TOTP });
      const row = await findBrokerAccountByUser(db(), dev.id);
      expect(JSON.stringify(row)).not.toContain(MPIN);
      expect(JSON.stringify(row)).not.toContain(TOTP);
      // As values (a 4-digit MPIN could occur inside a port or a timestamp) and as field names.
      const logs = t.logs.join('\n');
      for (const secret of [`"${MPIN}"`, `"${TOTP}"`, '"mpin"', '"totp"']) expect(logs).not.toContain(secret);
    });
  });

  describe('IP not allowed', () => {
    it('resume is a 409 while orders are not blocked, and clears a block (audited, the engine told)', async () => {
      const erin = await signUp('erin');
      await saveCredentials(erin.token);
      const { state } = await connect(erin.token);
      expect((await callback(erin.token, { state, code: 'good' })).status).toBe(200);
      const notBlocked = await call('POST', '/api/user/broker/resume', { token: erin.token, body: {} });
      expect(notBlocked.status).toBe(409);
      expect(
        (await call('POST', '/api/user/broker/resume', { token: erin.token, body: { x: 1 } })).status,
      ).toBe(400);

      const row = await findBrokerAccountByUser(db(), erin.id);
      await db()('broker_accounts')
        .where({ user_id: erin.id })
        .update({ ip_blocked_at: NOW, last_error: `IP refused. This server's IP address: ${EGRESS_IP}.` });
      const blocked = await t.request('GET', '/api/user/broker', { token: erin.token });
      expect(blocked.json).toMatchObject({ session: 'ip_blocked', connected: false });
      expect(String(blocked.json.lastError)).toContain(EGRESS_IP);
      expect(
        (await t.request('GET', '/api/user/trading-mode', { token: erin.token })).json.liveAvailable,
      ).toBe(false);

      const changedBefore = app.changed.length;
      const resumed = await call('POST', '/api/user/broker/resume', { token: erin.token, body: {} });
      expect(resumed.status).toBe(200);
      expect(resumed.json.broker).toMatchObject({ session: 'connected', lastError: null });
      expect(app.changed.slice(changedBefore)).toEqual([erin.id]);
      const after = await findBrokerAccountByUser(db(), erin.id);
      expect(after?.ip_blocked_at).toBeNull();
      expect(after?.access_token_enc).toBe(row?.access_token_enc);
      const audit = await db()('logs').where({ user_id: erin.id }).orderBy('id', 'desc').first();
      expect(String(audit?.description)).toMatch(/resumed by the user after whitelisting the IP/);
    });
  });
});
