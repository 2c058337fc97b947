// Angel One's connection lifecycle end to end through the real server and its shipped registry, against the Angel
// fake, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the card's description of the daily form login, a value
// that does not match its field refused with a 400 naming it, a wrong TOTP refused by Angel in fixed words, the
// form login that connects (MPIN, TOTP and Angel's tokens in no response and no log line), the publisher-login
// redirect as the alternative, and the admin's Test connection of Angel One.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { findBrokerAccountByUser } from '../../server/src/db';
import { testDialects } from '../../server/src/db/testing';
import { signInFirstAdmin } from '@optionpilot/server/testing/admin';
import { registration, startTestServer, type TestServer } from '@optionpilot/server/testing/server';
import { startAngelFake, type AngelFake, type AngelFakeAccount } from '../fakes/angelone/server';
import { totp } from '../fakes/angelone/totp';

const PUBLIC_URL = 'http://127.0.0.1:3929';
const ACCOUNT: AngelFakeAccount = {
  apiKey: 'smartkey42',
  clientCode: 'R946011',
  mpin: '8080',
  totpSecret: 'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U',
  name: 'Rohit Verma',
  redirectUrl: `${PUBLIC_URL}/broker/angelone/callback`,
};
const API_SECRET = 'smart-secret-key-42';

describe.each(testDialects())('Angel One connection against its fake (%s)', (dialect) => {
  let fake: AngelFake;
  let t: TestServer;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    fake = await startAngelFake({ accounts: [ACCOUNT] });
    t = await startTestServer({
      dialect,
      env: {
        PUBLIC_URL,
        ANGELONE_API_ROOT: fake.url,
        ANGELONE_LOGIN_URL: `${fake.url}/publisher-login`,
        ANGELONE_WS_ROOT: fake.wsUrl,
        ANGELONE_MASTER_ROOT: fake.url,
      },
    });
    const res = await t.request('POST', '/api/auth/register', { body: registration(`angel-${dialect}`) });
    token = res.json.token as string;
    userId = (res.json.user as { id: number }).id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('offers Angel One with its daily form login, the publisher login beside it, and what to set up at Angel', async () => {
    const res = await t.request('GET', '/api/brokers');
    const angel = (res.json.brokers as Array<Record<string, unknown>>).find((b) => b.type === 'angelone');
    expect(angel).toMatchObject({
      label: 'Angel One',
      available: true,
      loginKind: 'form',
      submitPath: '/api/user/broker/login',
      redirectLogin: true,
      setup: {
        credentialLabels: { apiKey: 'API key', apiSecret: 'secret key' },
        redirectUrl: `${PUBLIC_URL}/broker/angelone/callback`,
        postbackUrl: null,
        sessionEnds: '00:00 IST (midnight)',
      },
    });
    expect((angel?.fields as Array<{ name: string; kind: string }>).map((f) => [f.name, f.kind])).toEqual([
      ['clientCode', 'text'],
      ['mpin', 'secret'],
      ['totp', 'otp'],
    ]);
    expect(JSON.stringify(angel?.setup)).toMatch(/static IP/);
    expect(JSON.stringify(angel?.setup)).toMatch(/TOTP/);
  });

  it('refuses a value that does not match its field with a 400 naming it, before Angel is asked', async () => {
    const saved = await t.request('POST', '/api/user/broker', {
      token,
      body: { brokerType: 'angelone', apiKey: ACCOUNT.apiKey, apiSecret: API_SECRET },
    });
    expect(saved.status).toBe(200);
    const before = fake.logins;
    const bad = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { clientCode: ACCOUNT.clientCode, mpin: '80a0', totp: '123456' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('fields.mpin');
    expect(String(bad.json.message)).toContain('MPIN must be the 4-digit MPIN');
    const missing = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { clientCode: ACCOUNT.clientCode, mpin: ACCOUNT.mpin } },
    });
    expect(missing.json.field).toBe('fields.totp');
    expect(fake.logins).toBe(before);
  });

  it('passes a wrong TOTP to Angel once and shows its refusal in fixed words', async () => {
    const wrong = String((Number(totp(ACCOUNT.totpSecret)) + 500_000) % 1_000_000).padStart(6, '0');
    const res = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { clientCode: ACCOUNT.clientCode, mpin: ACCOUNT.mpin, totp: wrong } },
    });
    expect(res.status).toBe(502);
    expect(res.json.message).toBe(
      'The broker refused the request. Check your API key and secret, and that the app is enabled.',
    );
    expect(res.text).not.toContain('Invalid totp');
  });

  it('connects by the form login; MPIN, TOTP and Angel’s tokens appear in no response and no log line', async () => {
    const code = totp(ACCOUNT.totpSecret);
    const res = await t.request('POST', '/api/user/broker/login', {
      token,
      // The client code as a trader may type it: Angel's codes are upper case.
      body: { fields: { clientCode: ACCOUNT.clientCode.toLowerCase(), mpin: ACCOUNT.mpin, totp: code } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.broker).toMatchObject({
      brokerType: 'angelone',
      session: 'connected',
      accountName: ACCOUNT.name,
    });
    const me = await t.request('GET', '/api/auth/me', { token });
    expect(me.json).toMatchObject({ brokerType: 'angelone', brokerConnected: true });
    const row = await findBrokerAccountByUser(t.server.deps.db.knex, userId);
    expect(row?.broker_user_id).toBe(ACCOUNT.clientCode);
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    const stored = JSON.parse(box.open(row?.access_token_enc ?? '')) as { jwt: string; feed: string };
    expect(stored.jwt.length).toBeGreaterThan(20);
    const card = await t.request('GET', '/api/user/broker', { token });
    for (const text of [res.text, me.text, card.text, t.logs.join('\n')]) {
      expect(text).not.toContain(stored.jwt);
      expect(text).not.toContain(stored.feed);
      expect(text).not.toContain(API_SECRET);
      expect(text).not.toContain(`"${ACCOUNT.mpin}"`);
      expect(text).not.toContain(`"${code}"`);
    }
    // The tokens are stored sealed.
    expect(row?.access_token_enc).not.toContain(stored.jwt);
  });

  it('connects through the publisher login as well: Angel sends the browser back with its tokens and the state', async () => {
    const connect = await t.request('POST', '/api/user/broker/connect', { token, body: {} });
    expect(connect.status).toBe(200);
    const loginUrl = new URL(connect.json.loginUrl as string);
    expect(loginUrl.origin + loginUrl.pathname).toBe(`${fake.url}/publisher-login`);
    expect(loginUrl.searchParams.get('api_key')).toBe(ACCOUNT.apiKey);
    const page = await fetch(loginUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const back = new URL(page.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/broker/angelone/callback`);
    expect(back.searchParams.get('state')).toBe(loginUrl.searchParams.get('state'));
    const callback = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'angelone', query: Object.fromEntries(back.searchParams) },
    });
    expect(callback.status, callback.text).toBe(200);
    expect(callback.json.broker).toMatchObject({ session: 'connected', accountName: ACCOUNT.name });
    expect(callback.text).not.toContain(back.searchParams.get('auth_token') ?? 'no token');
    // The state was single use.
    const again = await t.request('POST', '/api/user/broker/callback', {
      token,
      body: { broker: 'angelone', query: Object.fromEntries(back.searchParams) },
    });
    expect(again.json.error).toBe('broker_login_invalid');
  });

  it("lets an admin test Angel One: the API root, then the connected account's profile; an ended session in words", async () => {
    const admin = await signInFirstAdmin(t);
    const res = await t.request('POST', '/api/admin/brokers/angelone/test', { token: admin.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      check: 'profile',
      brokerType: 'angelone',
      message: `Angel One API reachable and account ${ACCOUNT.clientCode} answered.`,
      profile: { name: ACCOUNT.name },
    });
    // Angel's midnight logout: the profile is refused, and the test says so in fixed words.
    fake.expireSessions();
    const ended = await t.request('POST', '/api/admin/brokers/angelone/test', {
      token: admin.token,
      body: { userId },
    });
    expect(ended.json).toMatchObject({ success: false, check: 'profile', brokerType: 'angelone' });
    expect(String(ended.json.message)).toContain('Your broker session has expired');
  });
});

describe('Angel One Test connection when Angel cannot be reached', () => {
  it('says in words that the API root did not answer', async () => {
    const t = await startTestServer({ env: { ANGELONE_API_ROOT: 'http://127.0.0.1:9' } });
    try {
      const admin = await signInFirstAdmin(t);
      const res = await t.request('POST', '/api/admin/brokers/angelone/test', {
        token: admin.token,
        body: {},
      });
      expect(res.json).toMatchObject({ success: false, check: 'api', brokerType: 'angelone' });
      expect(String(res.json.message)).toMatch(
        /^Could not connect to Angel One API: http:\/\/127\.0\.0\.1:9: connection failed/,
      );
    } finally {
      await t.close();
    }
  });
});
