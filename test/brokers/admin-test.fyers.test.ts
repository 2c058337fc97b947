// The admin's "Test connection" for Fyers (spec §7's POST /api/admin/test-fyers and the per-broker
// POST /api/admin/brokers/fyers/test) against the Fyers fake: the API root reached, then the profile of the
// connected account over its session; a refused session and an unreachable API said in words; no key, secret or
// token in any answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { testDialects } from '../../server/src/db/testing';
import { saveBrokerCredentials, updateBrokerAccount } from '../../server/src/db';
import { registerTrader, signInFirstAdmin, type Caller } from '../../server/src/testing/admin';
import { assertNoSecrets, startTestServer, type TestServer } from '../../server/src/testing/server';
import { startFyersFake, type FyersFake, type FyersFakeApp } from '../fakes/fyers/server';

const APP: FyersFakeApp = {
  appId: 'FYADMN1-100',
  secret: 'admin-test-secret',
  fyId: 'XT00042',
  name: 'Asha Rao',
  redirectUrl: 'http://127.0.0.1:9/broker/fyers/callback',
};

describe.each(testDialects())('admin Test connection for Fyers (%s)', (dialect) => {
  let fake: FyersFake;
  let t: TestServer;
  let admin: Caller;
  let trader: Caller;
  let token = '';

  beforeAll(async () => {
    fake = await startFyersFake({ apps: [APP] });
    t = await startTestServer({
      dialect,
      env: {
        FYERS_API_ROOT: fake.url,
        FYERS_LOGIN_URL: `${fake.url}/api/v3/generate-authcode`,
        FYERS_WS_ROOT: fake.wsUrl,
        FYERS_MASTER_ROOT: fake.url,
      },
    });
    admin = await signInFirstAdmin(t);
    trader = await registerTrader(t, 'fy1');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const test = (path: string, body: Record<string, unknown> = {}) =>
    t.request('POST', path, { token: admin.token, body });

  it('reaches Fyers, and says there is no account to read a profile with before one connects', async () => {
    const res = await test('/api/admin/test-fyers');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, check: 'api', brokerType: 'fyers' });
    expect(String(res.json.message)).toMatch(/^Fyers API reachable .* No connected Fyers account/);
  });

  it('reads the profile of the connected account over its session, on both routes, with no secret in the answer', async () => {
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    const knex = t.server.deps.db.knex;
    token = fake.issueSession(APP.appId);
    await saveBrokerCredentials(knex, trader.id, {
      broker_type: 'fyers',
      api_key_enc: box.seal(APP.appId),
      api_secret_enc: box.seal(APP.secret),
      api_key_last4: '-100',
    });
    await updateBrokerAccount(knex, trader.id, {
      status: 'connected',
      access_token_enc: box.seal(token),
      token_expires_at: t.clock.now() + 3_600_000,
      broker_user_id: APP.fyId,
      connected_at: t.clock.now(),
    });
    for (const path of ['/api/admin/test-fyers', '/api/admin/brokers/fyers/test']) {
      const res = await test(path);
      expect(res.json).toMatchObject({
        success: true,
        check: 'profile',
        brokerType: 'fyers',
        message: `Fyers API reachable and account ${APP.fyId} answered.`,
        profile: { name: APP.name },
      });
      for (const secret of [APP.secret, token, APP.appId]) expect(res.text).not.toContain(secret);
      assertNoSecrets(res.text);
    }
    const named = await test('/api/admin/brokers/fyers/test', { userId: trader.id });
    expect(named.json).toMatchObject({ success: true, check: 'profile' });
    expect((await test('/api/admin/brokers/fyers/test', { userId: admin.id })).json.field).toBe('userId');
  });

  it('says in words when Fyers refuses the session, then when the API cannot be reached', async () => {
    fake.expireSessions();
    const refused = await test('/api/admin/test-fyers');
    expect(refused.json).toMatchObject({ success: false, check: 'profile', brokerType: 'fyers' });
    expect(String(refused.json.message)).toBe(
      `Fyers API reachable, but the profile of account ${APP.fyId} failed: Your broker session has expired. Reconnect to trade today.`,
    );
    await fake.close();
    const down = await test('/api/admin/brokers/fyers/test');
    expect(down.json).toMatchObject({ success: false, check: 'api', brokerType: 'fyers' });
    expect(String(down.json.message)).toMatch(
      /^Could not connect to Fyers API: .*connection failed \(ECONNREFUSED\)/,
    );
    fake = await startFyersFake();
  });

  it('answers 401 without a token and 403 to a trader', async () => {
    expect((await t.request('POST', '/api/admin/test-fyers', { body: {} })).status).toBe(401);
    expect((await t.request('POST', '/api/admin/test-fyers', { token: trader.token, body: {} })).status).toBe(
      403,
    );
  });
});
