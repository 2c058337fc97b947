// Groww's connection lifecycle end to end through the real server and its shipped registry, against the Groww fake,
// on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the card's description of the daily form login (TOTP, or empty
// after approving the key in Groww), a malformed TOTP refused with a 400 naming the field before Groww is asked, a
// wrong TOTP refused by Groww in fixed words, the TOTP login and the approval login that connect (the secret, the
// code and Groww's token in no response and no log line), and the admin's Test connection of Groww.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { findBrokerAccountByUser } from '../../server/src/db';
import { testDialects } from '../../server/src/db/testing';
import { signInFirstAdmin } from '../../server/src/testing/admin';
import { registration, startTestServer, type TestServer } from '../../server/src/testing/server';
import { startGrowwFake, type GrowwFake, type GrowwFakeAccount } from '../fakes/groww/server';
import { totp } from '../fakes/angelone/totp';

const ACCOUNT: GrowwFakeAccount = {
  apiKey: 'eyJraWQiOiJrZXk0Mi5ncm93dw',
  apiSecret: 'groww-secret-42',
  totpSecret: 'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U',
  ucc: '731905',
};

describe.each(testDialects())('Groww connection against its fake (%s)', (dialect) => {
  let fake: GrowwFake;
  let t: TestServer;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    fake = await startGrowwFake({ accounts: [ACCOUNT] });
    t = await startTestServer({
      dialect,
      env: {
        GROWW_API_ROOT: fake.url,
        GROWW_LOGIN_URL: fake.endpoints.loginUrl,
        GROWW_WS_ROOT: fake.endpoints.wsRoot,
        GROWW_MASTER_ROOT: fake.url,
      },
    });
    const res = await t.request('POST', '/api/auth/register', { body: registration(`groww-${dialect}`) });
    token = res.json.token as string;
    userId = (res.json.user as { id: number }).id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('offers Groww with its daily form login (a TOTP that may be left empty) and what to set up at Groww', async () => {
    const res = await t.request('GET', '/api/brokers');
    const groww = (res.json.brokers as Array<Record<string, unknown>>).find((b) => b.type === 'groww');
    expect(groww).toMatchObject({
      label: 'Groww',
      available: true,
      loginKind: 'form',
      submitPath: '/api/user/broker/login',
      redirectLogin: false,
      setup: {
        credentialLabels: { apiKey: 'API key', apiSecret: 'API secret' },
        redirectUrl: null,
        postbackUrl: null,
        sessionEnds: '06:00 IST',
      },
    });
    expect((groww?.fields as Array<{ name: string; kind: string }>).map((f) => [f.name, f.kind])).toEqual([
      ['totp', 'otp'],
    ]);
    expect(JSON.stringify(groww?.setup)).toMatch(/static IP/);
    expect(JSON.stringify(groww?.setup)).toMatch(/approve/);
  });

  it('refuses a malformed TOTP with a 400 naming it, before Groww is asked', async () => {
    const saved = await t.request('POST', '/api/user/broker', {
      token,
      body: { brokerType: 'groww', apiKey: ACCOUNT.apiKey, apiSecret: ACCOUNT.apiSecret },
    });
    expect(saved.status).toBe(200);
    const before = fake.logins;
    const bad = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { totp: '12a456' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('fields.totp');
    expect(fake.logins).toBe(before);
  });

  it('passes a wrong TOTP to Groww once and shows its refusal in fixed words', async () => {
    const wrong = String((Number(totp(ACCOUNT.totpSecret)) + 500_000) % 1_000_000).padStart(6, '0');
    const before = fake.logins;
    const res = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { totp: wrong } },
    });
    expect(res.status).toBe(502);
    expect(res.json.message).toBe(
      'The broker refused the request. Check your API key and secret, and that the app is enabled.',
    );
    expect(res.text).not.toContain('Invalid TOTP');
    expect(fake.logins).toBe(before + 1);
  });

  it('connects by TOTP and by approval; the secret, the code and Groww’s token appear in no response and no log line', async () => {
    const box = createSecretBox(loadOrCreateKey(t.config.dataDir, t.config.encryptionKey));
    const code = totp(ACCOUNT.totpSecret);
    const byTotp = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { totp: code } },
    });
    expect(byTotp.status, byTotp.text).toBe(200);
    expect(byTotp.json.broker).toMatchObject({
      brokerType: 'groww',
      session: 'connected',
      accountName: `Groww ${ACCOUNT.ucc}`,
    });
    const first = box.open(
      (await findBrokerAccountByUser(t.server.deps.db.knex, userId))?.access_token_enc ?? '',
    );

    const byApproval = await t.request('POST', '/api/user/broker/login', {
      token,
      body: { fields: { totp: '' } },
    });
    expect(byApproval.status, byApproval.text).toBe(200);
    const row = await findBrokerAccountByUser(t.server.deps.db.knex, userId);
    expect(row?.broker_user_id).toBe(ACCOUNT.ucc);
    const stored = box.open(row?.access_token_enc ?? '');
    expect(stored).not.toBe(first);
    expect(row?.access_token_enc).not.toContain(stored);
    const me = await t.request('GET', '/api/auth/me', { token });
    expect(me.json).toMatchObject({ brokerType: 'groww', brokerConnected: true });
    const card = await t.request('GET', '/api/user/broker', { token });
    for (const text of [byTotp.text, byApproval.text, me.text, card.text, t.logs.join('\n')]) {
      expect(text).not.toContain(stored);
      expect(text).not.toContain(first);
      expect(text).not.toContain(ACCOUNT.apiSecret);
      expect(text).not.toContain(`"${code}"`);
    }
  });

  it("lets an admin test Groww: the API root, then the connected account's profile; an ended session in words", async () => {
    const admin = await signInFirstAdmin(t);
    const res = await t.request('POST', '/api/admin/brokers/groww/test', { token: admin.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, check: 'profile', brokerType: 'groww' });
    expect(String(res.json.message)).toContain(ACCOUNT.ucc);
    fake.expireSessions();
    const ended = await t.request('POST', '/api/admin/brokers/groww/test', {
      token: admin.token,
      body: { userId },
    });
    expect(ended.json).toMatchObject({ success: false, check: 'profile', brokerType: 'groww' });
    expect(String(ended.json.message)).toContain('Your broker session has expired');
  });
});
