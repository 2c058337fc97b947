// Alice Blue's connection lifecycle end to end through the real server and its shipped registry, against the Alice
// Blue fake, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the card's description of the redirect login, the
// vendor login whose redirect carries only `authCode` and `userId` (no `state`), bound to the browser session's own
// Connect click and single use, the user session in no response and no log line, and the admin's Test connection.
// The server is imported by path, not as @optionpilot/server, so a worktree tests its own server code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { findBrokerAccountByUser } from '../../server/src/db';
import { testDialects } from '../../server/src/db/testing';
import { signInFirstAdmin } from '../../server/src/testing/admin';
import { registration, startTestServer, type TestServer } from '../../server/src/testing/server';
import { startAliceFake, type AliceFake, type AliceFakeAccount } from '../fakes/aliceblue/server';

const PUBLIC_URL = 'http://127.0.0.1:3931';
const ACCOUNT: AliceFakeAccount = {
  userId: 'AB7788',
  appCode: 'antapp77',
  apiSecret: 'ant-api-secret-77',
  name: 'Kavya Menon',
  redirectUrl: `${PUBLIC_URL}/broker/aliceblue/callback`,
};

describe.each(testDialects())('Alice Blue connection against its fake (%s)', (dialect) => {
  let fake: AliceFake;
  let t: TestServer;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    fake = await startAliceFake({ accounts: [ACCOUNT] });
    t = await startTestServer({
      dialect,
      env: {
        PUBLIC_URL,
        ALICEBLUE_API_ROOT: fake.url,
        ALICEBLUE_LOGIN_URL: `${fake.url}/`,
        ALICEBLUE_WS_ROOT: fake.endpoints.wsRoot,
        ALICEBLUE_MASTER_ROOT: fake.url,
      },
    });
    const res = await t.request('POST', '/api/auth/register', { body: registration(`alice-${dialect}`) });
    token = res.json.token as string;
    userId = (res.json.user as { id: number }).id;
    const saved = await t.request('POST', '/api/user/broker', {
      token,
      body: { brokerType: 'aliceblue', apiKey: ACCOUNT.appCode, apiSecret: ACCOUNT.apiSecret },
    });
    expect(saved.status, saved.text).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** The trader's browser at ANT's login page: the redirect it is sent back with. */
  const loginAtAnt = async (loginUrl: string): Promise<URL> => {
    const page = await fetch(loginUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    return new URL(page.headers.get('location') ?? '');
  };

  it('offers Alice Blue with its redirect login and what to set up at ANT', async () => {
    const res = await t.request('GET', '/api/brokers');
    const alice = (res.json.brokers as Array<Record<string, unknown>>).find((b) => b.type === 'aliceblue');
    expect(alice).toMatchObject({
      label: 'Alice Blue',
      available: true,
      loginKind: 'redirect',
      setup: {
        credentialLabels: { apiKey: 'App code', apiSecret: 'API secret' },
        redirectUrl: `${PUBLIC_URL}/broker/aliceblue/callback`,
        postbackUrl: null,
        sessionEnds: '24 hours after you log in',
      },
    });
    expect(JSON.stringify(alice?.setup)).toMatch(/static IP/);
  });

  it('refuses a callback no Connect click of this session asked for, without asking ANT', async () => {
    const before = fake.logins;
    const res = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'aliceblue', query: { authCode: 'FORGED', userId: ACCOUNT.userId } },
    });
    expect(res.json.error).toBe('broker_login_invalid');
    expect(fake.logins).toBe(before);
  });

  it('connects: ANT sends back authCode and userId only, the session completes its own Connect click once', async () => {
    const connect = await t.request('POST', '/api/user/broker/connect', { token, body: {} });
    expect(connect.status).toBe(200);
    const loginUrl = new URL(connect.json.loginUrl as string);
    expect(loginUrl.origin).toBe(fake.url);
    expect(loginUrl.searchParams.get('appcode')).toBe(ACCOUNT.appCode);
    const back = await loginAtAnt(loginUrl.toString());
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/broker/aliceblue/callback`);
    expect(back.searchParams.get('state')).toBeNull();
    const query = Object.fromEntries(back.searchParams);
    const callback = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'aliceblue', query },
    });
    expect(callback.status, callback.text).toBe(200);
    expect(callback.json.broker).toMatchObject({
      brokerType: 'aliceblue',
      session: 'connected',
      accountName: ACCOUNT.name,
    });
    const row = await findBrokerAccountByUser(t.server.deps.db.knex, userId);
    expect(row?.broker_user_id).toBe(ACCOUNT.userId);
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    const stored = JSON.parse(box.open(row?.access_token_enc ?? '')) as { uid: string; session: string };
    expect(stored.uid).toBe(ACCOUNT.userId);
    const me = await t.request('GET', '/api/auth/me', { token });
    const card = await t.request('GET', '/api/user/broker', { token });
    for (const text of [callback.text, me.text, card.text, t.logs.join('\n')]) {
      expect(text).not.toContain(stored.session);
      expect(text).not.toContain(ACCOUNT.apiSecret);
    }
    expect(row?.access_token_enc).not.toContain(stored.session);
    // The Connect click was single use: the same redirect again is refused.
    const again = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'aliceblue', query },
    });
    expect(again.json.error).toBe('broker_login_invalid');
  });

  it('does not let another session complete this trader’s login, even with the same ANT app saved', async () => {
    const connect = await t.request('POST', '/api/user/broker/connect', { token, body: {} });
    const back = await loginAtAnt(connect.json.loginUrl as string);
    const other = await t.request('POST', '/api/auth/register', {
      body: registration(`alice-other-${dialect}`),
    });
    const otherToken = other.json.token as string;
    await t.request('POST', '/api/user/broker', {
      token: otherToken,
      body: { brokerType: 'aliceblue', apiKey: ACCOUNT.appCode, apiSecret: ACCOUNT.apiSecret },
    });
    const before = fake.logins;
    const res = await t.request('POST', '/api/user/broker/callback', {
      token: otherToken,
      body: { broker: 'aliceblue', query: Object.fromEntries(back.searchParams) },
    });
    expect(res.json.error).toBe('broker_login_invalid');
    expect(fake.logins).toBe(before);
  });

  it("lets an admin test Alice Blue: the connected account's profile; an ended session in words", async () => {
    const admin = await signInFirstAdmin(t);
    const res = await t.request('POST', '/api/admin/brokers/aliceblue/test', {
      token: admin.token,
      body: { userId },
    });
    expect(res.json).toMatchObject({ success: true, check: 'profile', brokerType: 'aliceblue' });
    expect(res.json.profile).toMatchObject({ name: ACCOUNT.name });
    fake.expireSessions();
    const ended = await t.request('POST', '/api/admin/brokers/aliceblue/test', {
      token: admin.token,
      body: { userId },
    });
    expect(ended.json).toMatchObject({ success: false, check: 'profile', brokerType: 'aliceblue' });
    expect(String(ended.json.message)).toContain('Your broker session has expired');
  });
});
