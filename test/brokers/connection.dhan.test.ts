// Dhan's connection lifecycle end to end through the real server and its shipped registry, against the Dhan fake,
// on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the card's description (pasted token as the form, consent as
// the redirect), a value that does not match its field refused with a 400 naming it, the pasted token that connects
// (the token in no response and no log line), a token of another account refused, the consent flow whose callback
// (Dhan echoes no state) is claimed by the same browser session only and only once, and the admin's Test connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { findBrokerAccountByUser } from '../../server/src/db';
import { testDialects } from '../../server/src/db/testing';
import { signInFirstAdmin } from '../../server/src/testing/admin';
import { registration, startTestServer, type TestServer } from '../../server/src/testing/server';
import { startDhanFake, type DhanFake, type DhanFakeAccount } from '../fakes/dhan/server';

const PUBLIC_URL = 'http://127.0.0.1:3931';
const ACCOUNT: DhanFakeAccount = {
  clientId: '1100552233',
  name: 'Kavya Menon',
  appId: 'dhan-app-77',
  appSecret: 'dhan-app-secret-77',
  redirectUrl: `${PUBLIC_URL}/broker/dhan/callback`,
};
const OTHER: DhanFakeAccount = {
  clientId: '1100999999',
  name: 'Someone Else',
  appId: 'other',
  appSecret: 'other-s',
};

describe.each(testDialects())('Dhan connection against its fake (%s)', (dialect) => {
  let fake: DhanFake;
  let t: TestServer;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    fake = await startDhanFake({ accounts: [ACCOUNT, OTHER] });
    t = await startTestServer({
      dialect,
      env: {
        PUBLIC_URL,
        DHAN_API_ROOT: fake.url,
        DHAN_LOGIN_URL: `${fake.url}/login/consentApp-login`,
        DHAN_WS_ROOT: fake.endpoints.wsRoot,
        DHAN_MASTER_ROOT: fake.url,
      },
    });
    const res = await t.request('POST', '/api/auth/register', { body: registration(`dhan-${dialect}`) });
    token = res.json.token as string;
    userId = (res.json.user as { id: number }).id;
    const saved = await t.request('POST', '/api/user/broker', {
      token,
      body: {
        brokerType: 'dhan',
        apiKey: `${ACCOUNT.clientId}:${ACCOUNT.appId}`,
        apiSecret: ACCOUNT.appSecret,
      },
    });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('offers Dhan with the pasted token as its form, the consent login beside it, and the static IP to set', async () => {
    const res = await t.request('GET', '/api/brokers');
    const dhan = (res.json.brokers as Array<Record<string, unknown>>).find((b) => b.type === 'dhan');
    expect(dhan).toMatchObject({
      label: 'Dhan',
      available: true,
      loginKind: 'form',
      redirectLogin: true,
      setup: {
        redirectUrl: `${PUBLIC_URL}/broker/dhan/callback`,
        postbackUrl: null,
        sessionEnds: '24 hours after you log in',
      },
    });
    expect((dhan?.fields as Array<{ name: string }>).map((f) => f.name)).toEqual(['clientId', 'accessToken']);
    expect(JSON.stringify(dhan?.setup)).toMatch(/Static IP/);
  });

  it('refuses a client id that is not digits with a 400 naming the field, before Dhan is asked', async () => {
    const before = fake.requests.length;
    const bad = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { clientId: 'abc', accessToken: 'x'.repeat(40) } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('fields.clientId');
    expect(fake.requests.length).toBe(before);
  });

  it('refuses a pasted token of another Dhan account in fixed words', async () => {
    const res = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { clientId: ACCOUNT.clientId, accessToken: fake.issueToken(OTHER.clientId) } },
    });
    expect(res.status).toBe(502);
    expect(res.json.message).toMatch(/^The broker refused the request/);
  });

  it('connects with a pasted token; the token appears in no response and no log line, and is stored sealed', async () => {
    const pasted = fake.issueToken(ACCOUNT.clientId);
    const res = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { clientId: ACCOUNT.clientId, accessToken: pasted } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.broker).toMatchObject({ brokerType: 'dhan', session: 'connected' });
    const row = await findBrokerAccountByUser(t.server.deps.db.knex, userId);
    expect(row?.broker_user_id).toBe(ACCOUNT.clientId);
    // Dhan tokens last 24 h: the session ends within a day.
    expect((row?.token_expires_at ?? 0) - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expect((row?.token_expires_at ?? 0) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    expect(box.open(row?.access_token_enc ?? '')).toContain(pasted);
    expect(row?.access_token_enc).not.toContain(pasted);
    const card = await t.request('GET', '/api/user/broker', { token });
    for (const text of [res.text, card.text, t.logs.join('\n')]) {
      expect(text).not.toContain(pasted);
      expect(text).not.toContain(ACCOUNT.appSecret);
    }
  });

  it('connects through the consent flow: the callback is claimed by the same session only, once', async () => {
    const connect = await t.request('POST', '/api/user/broker/connect', { token, body: {} });
    expect(connect.status, connect.text).toBe(200);
    const loginUrl = new URL(connect.json.loginUrl as string);
    expect(loginUrl.origin + loginUrl.pathname).toBe(`${fake.url}/login/consentApp-login`);
    expect(loginUrl.searchParams.get('consentAppId')).toMatch(/^[0-9a-f]{32}$/);
    const page = await fetch(loginUrl, { redirect: 'manual' });
    const back = new URL(page.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/broker/dhan/callback`);
    expect([...back.searchParams.keys()]).toEqual(['tokenId']);
    const query = Object.fromEntries(back.searchParams);

    // Another browser session of the same trader has no pending Connect: refused.
    const other = await t.request('POST', '/api/auth/login', {
      body: {
        email: registration(`dhan-${dialect}`).email,
        password: registration(`dhan-${dialect}`).password,
      },
    });
    const foreign = await t.request('POST', '/api/user/broker/callback', {
      token: other.json.token as string,
      body: { broker: 'dhan', query },
    });
    expect(foreign.json.error).toBe('broker_login_invalid');

    const callback = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'dhan', query },
    });
    expect(callback.status, callback.text).toBe(200);
    expect(callback.json.broker).toMatchObject({ session: 'connected', accountName: ACCOUNT.name });
    const again = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'dhan', query },
    });
    expect(again.json.error).toBe('broker_login_invalid');
  });

  it("lets an admin test Dhan: the connected account's profile; an ended token in words", async () => {
    const admin = await signInFirstAdmin(t);
    const res = await t.request('POST', '/api/admin/brokers/dhan/test', {
      token: admin.token,
      body: { userId },
    });
    expect(res.json).toMatchObject({ success: true, check: 'profile', brokerType: 'dhan' });
    fake.expireSessions();
    const ended = await t.request('POST', '/api/admin/brokers/dhan/test', {
      token: admin.token,
      body: { userId },
    });
    expect(ended.json).toMatchObject({ success: false, check: 'profile', brokerType: 'dhan' });
    expect(String(ended.json.message)).toContain('Your broker session has expired');
  });

  it('refuses Connect in fixed words when Dhan will not generate a consent for the saved app, and a key without its client id', async () => {
    const wrong = await t.request('POST', '/api/user/broker', {
      token,
      body: {
        brokerType: 'dhan',
        apiKey: `${ACCOUNT.clientId}:${ACCOUNT.appId}`,
        apiSecret: 'not-the-secret',
      },
    });
    expect(wrong.status).toBe(200);
    const refused = await t.request('POST', '/api/user/broker/connect', { token, body: {} });
    expect(refused.status).toBe(502);
    expect(refused.json.message).toMatch(/^The broker refused the request/);
    expect(refused.text).not.toContain('not-the-secret');
    await t.request('POST', '/api/user/broker', {
      token,
      body: { brokerType: 'dhan', apiKey: ACCOUNT.appId, apiSecret: ACCOUNT.appSecret },
    });
    const noClient = await t.request('POST', '/api/user/broker/connect', { token, body: {} });
    expect(noClient.status).toBe(502);
    // Put the right credentials back for the admin's test below.
    await t.request('POST', '/api/user/broker', {
      token,
      body: {
        brokerType: 'dhan',
        apiKey: `${ACCOUNT.clientId}:${ACCOUNT.appId}`,
        apiSecret: ACCOUNT.appSecret,
      },
    });
  });
});
