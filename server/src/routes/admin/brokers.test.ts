import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testDialects } from '../../db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Broker } from '@optionpilot/engine';
import { createSecretBox, loadOrCreateKey } from '../../crypto';
import { saveBrokerCredentials, updateBrokerAccount } from '../../db';
import type { BrokerModule } from '../../brokers/types';
import { BROKER_DEFINITIONS } from '../../brokers/registry';
import { BROKER_TYPES } from '../../contract';
import { testBroker } from '../../services/admin/brokers';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { assertNoSecrets, startTestServer, type TestServer } from '../../testing/server';

const NOW = Date.UTC(2026, 10, 10, 6, 0);

describe.each(testDialects())('admin brokers (%s)', (dialect) => {
  let t: TestServer;
  let admin: Caller;
  let paper: Caller;
  let kite: Caller;
  let fyers: Caller;
  beforeAll(async () => {
    // Kite's API root is a closed loopback port: the test may call the shipped Zerodha module, never the internet.
    t = await startTestServer({ dialect, env: { KITE_API_ROOT: 'http://127.0.0.1:9' } });
    t.clock.set(NOW);
    admin = await signInFirstAdmin(t);
    paper = await registerTrader(t, 'b1');
    kite = await registerTrader(t, 'b2');
    fyers = await registerTrader(t, 'b3');
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    const db = t.server.deps.db.knex;
    for (const [user, type] of [
      [kite, 'zerodha'],
      [fyers, 'fyers'],
    ] as const) {
      await saveBrokerCredentials(
        db,
        user.id,
        {
          broker_type: type,
          api_key_enc: box.seal('apikey123456'),
          api_secret_enc: box.seal('secret-xyz'),
          api_key_last4: '3456',
        },
        NOW,
      );
    }
    await updateBrokerAccount(db, kite.id, {
      status: 'connected',
      access_token_enc: box.seal('access-token-abc'),
      token_expires_at: NOW + 3_600_000,
      broker_user_id: 'AB1234',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('broker-status counts customers (not the admin), connections and brokers', async () => {
    expect((await t.request('GET', '/api/admin/broker-status', { token: kite.token })).status).toBe(403);
    const res = await t.request('GET', '/api/admin/broker-status', { token: admin.token });
    expect(res.json).toMatchObject({
      totalUsers: 3,
      connectedUsers: 1,
      brokerBreakdown: { zerodha: 1, fyers: 1 },
      sessions: { valid: 1, credentialsSaved: 1 },
    });
  });

  it('lists broker accounts with masked keys only, filtered on the server', async () => {
    const res = await t.request('GET', '/api/admin/brokers?status=connected', { token: admin.token });
    expect(res.json.total).toBe(1);
    expect(res.text).not.toContain('apikey123456');
    expect(res.text).not.toContain('access-token');
    assertNoSecrets(res.text);
    expect((await t.request('GET', '/api/admin/brokers?broker=nokia', { token: admin.token })).status).toBe(
      400,
    );
  });

  it('test-broker: paper succeeds, an unreachable broker and a broker without a module say so', async () => {
    expect(
      (await t.request('POST', '/api/admin/test-broker', { token: admin.token, body: { userId: 'x' } })).json
        .field,
    ).toBe('userId');
    const p = await t.request('POST', '/api/admin/test-broker', {
      token: admin.token,
      body: { userId: paper.id },
    });
    expect(p.json).toMatchObject({ success: true, check: 'paper' });
    const k = await t.request('POST', '/api/admin/test-broker', {
      token: admin.token,
      body: { userId: kite.id },
    });
    // The server's registry ships the Zerodha module: it asked Kite (unreachable here) and says so in fixed words.
    expect(k.json).toMatchObject({ success: false, check: 'profile', brokerType: 'zerodha' });
    expect(k.json.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });

  it('brokers/:type/test: says in words when the broker API cannot be reached; 400/404 for a bad or absent broker', async () => {
    const k = await t.request('POST', '/api/admin/brokers/zerodha/test', { token: admin.token, body: {} });
    expect(k.status).toBe(200);
    expect(k.json).toMatchObject({ success: false, check: 'api', brokerType: 'zerodha' });
    expect(String(k.json.message)).toMatch(
      /^Could not connect to Zerodha API: http:\/\/127\.0\.0\.1:9: connection failed/,
    );
    const bad = await t.request('POST', '/api/admin/brokers/nokia/test', { token: admin.token, body: {} });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('type');
    // A canonical broker type without a registered module (none once every broker of the spec is registered).
    const unregistered = BROKER_TYPES.find((type) => !BROKER_DEFINITIONS.some((d) => d.type === type));
    if (unregistered !== undefined) {
      const absent = await t.request('POST', `/api/admin/brokers/${unregistered}/test`, {
        token: admin.token,
        body: {},
      });
      expect(absent.status).toBe(404);
    }
    expect(
      (
        await t.request('POST', '/api/admin/brokers/zerodha/test', {
          token: admin.token,
          body: { userId: 0 },
        })
      ).json.field,
    ).toBe('userId');
    expect(
      (await t.request('POST', '/api/admin/brokers/zerodha/test', { token: kite.token, body: {} })).status,
    ).toBe(403);
    expect((await t.request('POST', '/api/admin/brokers/zerodha/test', { body: {} })).status).toBe(401);
  });

  it('test-broker with a module: asks the broker over the live session, or names the missing session', async () => {
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    const getPositions = vi.fn<Broker['getPositions']>().mockResolvedValue([]);
    const createBroker = vi.fn(() => ({ getPositions }) as unknown as Broker);
    const module = { type: 'zerodha', label: 'Zerodha Kite', createBroker } as unknown as BrokerModule;
    const deps = t.server.deps;
    const live = await testBroker({ deps, box, lookup: () => module, userId: kite.id });
    expect(live).toMatchObject({ success: true, check: 'profile', profile: { name: 'AB1234' } });
    expect(createBroker).toHaveBeenCalledWith(
      expect.objectContaining({ credentials: { apiKey: 'apikey123456', apiSecret: 'secret-xyz' } }),
    );
    expect(JSON.stringify(live)).not.toContain('secret-xyz');
    const noSession = await testBroker({ deps, box, lookup: () => module, userId: fyers.id });
    expect(noSession).toMatchObject({ success: false, check: 'session' });
  });

  it('force-broker-disconnect forgets the session, stops the bot live and is audited', async () => {
    const onUserChanged = vi.spyOn(t.server.deps.trading, 'onUserChanged');
    try {
      expect(
        (await t.request('POST', '/api/admin/force-broker-disconnect', { token: admin.token, body: {} }))
          .status,
      ).toBe(400);
      const none = await t.request('POST', '/api/admin/force-broker-disconnect', {
        token: admin.token,
        body: { userId: paper.id },
      });
      expect(none.status).toBe(404);
      const res = await t.request('POST', '/api/admin/force-broker-disconnect', {
        token: admin.token,
        body: { userId: kite.id },
      });
      expect(res.json).toMatchObject({ success: true });
      expect(onUserChanged).toHaveBeenCalledWith(kite.id);
    } finally {
      onUserChanged.mockRestore();
    }
    const row = await t.server.deps.db.knex('broker_accounts').where({ user_id: kite.id }).first();
    expect(row).toMatchObject({ status: 'disconnected', access_token_enc: null });
    const me = await t.request('GET', '/api/auth/me', { token: kite.token });
    expect(me.json.brokerConnected ?? (me.json.user as { brokerConnected: boolean }).brokerConnected).toBe(
      false,
    );
    expect(
      await t.server.deps.db
        .knex('logs')
        .where('description', 'like', 'Broker zerodha of%force-disconnected'),
    ).toHaveLength(1);
  });
});

describe('admin broker connection test against a broker that answers', () => {
  let t: TestServer;
  let api: Server;
  let admin: Caller;
  const seen: string[] = [];
  beforeAll(async () => {
    // A stand-in for Kite's API root: any path answers, and the profile answers for the one token it knows.
    api = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      const ok =
        req.url === '/user/profile' && req.headers.authorization === 'token apikey123456:access-token-abc';
      res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
      res.end(
        ok
          ? JSON.stringify({ status: 'success', data: { user_id: 'AB1234', user_name: 'Asha Rao' } })
          : JSON.stringify({ status: 'error', error_type: 'GeneralException', message: 'Route not found' }),
      );
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const root = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    t = await startTestServer({ env: { KITE_API_ROOT: root } });
    t.clock.set(NOW);
    admin = await signInFirstAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  });

  it('reaches the API root, then reads the profile of the most recently connected account', async () => {
    const none = await t.request('POST', '/api/admin/brokers/zerodha/test', { token: admin.token, body: {} });
    expect(none.json).toMatchObject({ success: true, check: 'api', brokerType: 'zerodha' });
    expect(String(none.json.message)).toMatch(/Zerodha API reachable .*No connected Zerodha account/);

    const trader = await registerTrader(t, 'p1');
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    const db = t.server.deps.db.knex;
    await saveBrokerCredentials(
      db,
      trader.id,
      {
        broker_type: 'zerodha',
        api_key_enc: box.seal('apikey123456'),
        api_secret_enc: box.seal('secret-xyz'),
        api_key_last4: '3456',
      },
      NOW,
    );
    await updateBrokerAccount(db, trader.id, {
      status: 'connected',
      access_token_enc: box.seal('access-token-abc'),
      token_expires_at: NOW + 3_600_000,
      connected_at: NOW,
      broker_user_id: 'AB1234',
    });
    const live = await t.request('POST', '/api/admin/brokers/zerodha/test', { token: admin.token, body: {} });
    expect(live.json).toMatchObject({
      success: true,
      check: 'profile',
      brokerType: 'zerodha',
      profile: { name: 'Asha Rao' },
    });
    expect(live.text).not.toContain('access-token-abc');
    expect(seen.some((line) => line.startsWith('GET /user/profile token apikey123456:'))).toBe(true);

    // A session the broker refuses is a failed profile, in fixed words.
    await updateBrokerAccount(db, trader.id, { access_token_enc: box.seal('revoked') });
    const refused = await t.request('POST', '/api/admin/brokers/zerodha/test', {
      token: admin.token,
      body: { userId: trader.id },
    });
    expect(refused.json).toMatchObject({ success: false, check: 'profile' });
    expect(refused.text).not.toContain('Route not found');
  });
});
