// The broker connection lifecycle end to end through the real server and its shipped registry, against the Upstox
// fake: Connect → the fake's OAuth dialog redirects back with code and state → the callback completes the login.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { findBrokerAccountByUser } from '../../server/src/db';
import { signInFirstAdmin } from '@optionpilot/server/testing/admin';
import { registration, startTestServer, type TestServer } from '@optionpilot/server/testing/server';
import { startFakeUpstox, type FakeUpstox } from '../fakes/upstox/server';

describe('broker connection against the Upstox fake', () => {
  let fake: FakeUpstox;
  let t: TestServer;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    fake = await startFakeUpstox();
    t = await startTestServer({
      env: {
        PUBLIC_URL: 'http://127.0.0.1:3927',
        UPSTOX_API_ROOT: fake.endpoints.apiRoot,
        UPSTOX_LOGIN_URL: fake.endpoints.loginUrl,
        UPSTOX_ORDERS_ROOT: fake.endpoints.ordersRoot,
        UPSTOX_WS_ROOT: fake.endpoints.wsRoot,
        UPSTOX_MASTER_ROOT: fake.endpoints.masterRoot,
      },
    });
    const res = await t.request('POST', '/api/auth/register', { body: registration('upstox-conn') });
    token = res.json.token as string;
    userId = (res.json.user as { id: number }).id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('offers Upstox as available because its module is registered', async () => {
    const res = await t.request('GET', '/api/brokers');
    const brokers = res.json.brokers as Array<{ type: string; available: boolean }>;
    expect(brokers.find((b) => b.type === 'upstox')?.available).toBe(true);
  });

  it('connects through the login redirect and shows the account name; the token never leaves the server', async () => {
    const saved = await t.request('POST', '/api/user/broker', {
      token,
      body: { brokerType: 'upstokes', apiKey: fake.apiKey, apiSecret: fake.apiSecret },
    });
    expect(saved.status).toBe(200);

    const connect = await t.request('POST', '/api/user/broker/connect', { token, body: {} });
    expect(connect.status).toBe(200);
    const login = await fetch(connect.json.loginUrl as string, { redirect: 'manual' });
    expect(login.status).toBe(302);
    const back = new URL(login.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe('http://127.0.0.1:3927/broker/upstox/callback');

    const callback = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'upstox', query: Object.fromEntries(back.searchParams) },
    });
    expect(callback.status).toBe(200);
    expect(callback.json.broker).toMatchObject({ session: 'connected', accountName: fake.userName });

    const me = await t.request('GET', '/api/auth/me', { token });
    expect(me.json).toMatchObject({ brokerType: 'upstox', brokerConnected: true });
    // The access token Upstox issued is stored sealed and appears in no response or log line.
    const row = await findBrokerAccountByUser(t.server.deps.db.knex, userId);
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    const accessToken = box.open(row?.access_token_enc ?? '');
    expect(accessToken.length).toBeGreaterThan(8);
    expect(row?.access_token_enc).not.toContain(accessToken);
    for (const text of [callback.text, me.text, t.logs.join('\n')]) {
      expect(text).not.toContain(fake.apiSecret);
      expect(text).not.toContain(accessToken);
    }

    // The same redirect again: the state was single use.
    const again = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'upstox', query: Object.fromEntries(back.searchParams) },
    });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('broker_login_invalid');
  });

  it("lets an admin test the trader's live session over HTTP through the same registry", async () => {
    const admin = await signInFirstAdmin(t);
    const res = await t.request('POST', '/api/admin/test-broker', { token: admin.token, body: { userId } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, check: 'profile', brokerType: 'upstox' });
    expect(res.json.message).toMatch(/answered/);
    expect(res.text).not.toContain(fake.apiSecret);

    // Upstox ends the session: the next test says so instead of claiming a connection.
    fake.expireTokens();
    const expired = await t.request('POST', '/api/admin/test-broker', {
      token: admin.token,
      body: { userId },
    });
    expect(expired.json).toMatchObject({ success: false, brokerType: 'upstox' });
  });
});
