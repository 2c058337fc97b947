import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../../mail/mailer';
import { RESET_REQUESTED_MESSAGE, RESET_TOKEN_TTL_MS } from '../../services/passwordReset';
import { PRODUCTION_OPERATOR_ENV } from '../../testing/operator';
import { assertNoSecrets, registration, startTestServer, type TestServer } from '../../testing/server';

const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';

describe('password reset in test mode (no SMTP_URL)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { PUBLIC_URL: 'https://app.example.in' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const requestReset = (email: string) =>
    t.request('POST', '/api/auth/request-password-reset', { body: { email } });

  it('returns the same message for unknown accounts, without a link', async () => {
    const res = await requestReset('ghost@example.com');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, message: RESET_REQUESTED_MESSAGE });
  });

  it('400 for an invalid e-mail', async () => {
    const res = await requestReset('nope');
    expect(res.status).toBe(400);
    expect(res.json.field).toBe('email');
  });

  it('resets end to end: link logged and returned, token single use, all sessions revoked', async () => {
    const reg = await t.request('POST', '/api/auth/register', { body: registration('reset') });
    const oldToken = reg.json.token as string;
    const res = await requestReset('asharesET@example.com');
    expect(res.status).toBe(200);
    expect(res.json.message).toBe(RESET_REQUESTED_MESSAGE);
    const link = res.json.resetLink as string;
    expect(link).toMatch(/^https:\/\/app\.example\.in\/reset-password\?token=[\w-]{43}$/);
    expect(t.logs.some((line) => line.includes(link) && line.includes('test mode'))).toBe(true);

    const weak = await t.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link), newPassword: 'NoDigitsAtAll' },
    });
    expect(weak.status).toBe(400);
    expect(weak.json.message).toBe('newPassword: Password must contain at least one number');

    const done = await t.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link), newPassword: 'Fresh2026' },
    });
    expect(done.status).toBe(200);
    expect(done.json.success).toBe(true);
    assertNoSecrets(done.text);

    expect((await t.request('GET', '/api/auth/me', { token: oldToken })).status).toBe(401);
    const again = await t.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link), newPassword: 'Another2026' },
    });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ error: 'invalid_reset_token', field: 'token' });

    const login = await t.request('POST', '/api/auth/login', {
      body: { email: 'ashareset@example.com', password: 'Fresh2026' },
    });
    expect(login.status).toBe(200);
  });

  it('refuses a token after 30 minutes', async () => {
    await t.request('POST', '/api/auth/register', { body: registration('expired') });
    const link = (await requestReset('ashaexpired@example.com')).json.resetLink as string;
    t.clock.advance(RESET_TOKEN_TTL_MS + 1);
    const res = await t.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link), newPassword: 'Fresh2026' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_reset_token');
  });

  it('refuses an unknown token and a missing one with the spec message', async () => {
    const unknown = await t.request('POST', '/api/auth/reset-password', {
      body: { token: 'x'.repeat(43), newPassword: 'Fresh2026' },
    });
    expect(unknown.status).toBe(400);
    const missing = await t.request('POST', '/api/auth/reset-password', {
      body: { token: '', newPassword: 'Fresh2026' },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe('token: Reset token is missing. Please use the link from your email.');
  });

  it('rate-limits requests per e-mail address', async () => {
    t.clock.advance(16 * 60_000);
    for (let i = 0; i < 3; i++) expect((await requestReset('limited@example.com')).status).toBe(200);
    const res = await requestReset('limited@example.com');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('password reset with a mail transport', () => {
  let t: TestServer;
  const sent: MailMessage[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      overrides: { mailer: { send: async (m) => void sent.push(m), close: () => {} } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('e-mails the link and never returns or logs it', async () => {
    await t.request('POST', '/api/auth/register', { body: registration('mail') });
    const res = await t.request('POST', '/api/auth/request-password-reset', {
      body: { email: 'ashamail@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, message: RESET_REQUESTED_MESSAGE });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe('ashamail@example.com');
    const link = /https?:\/\/\S+reset-password\?token=[\w-]+/.exec(sent[0]?.text ?? '')?.[0] ?? '';
    expect(link).not.toBe('');
    expect(t.logs.join('')).not.toContain(tokenOf(link));

    const done = await t.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link), newPassword: 'Mailed2026' },
    });
    expect(done.status).toBe(200);
  });
});

describe('password reset with a slow mail transport', () => {
  let t: TestServer;
  let release: () => void = () => {};
  const delivered = new Promise<void>((resolve) => {
    release = resolve;
  });
  const sent: MailMessage[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      overrides: {
        mailer: {
          // An SMTP round trip that has not finished: the answer must not wait for it.
          send: async (m) => {
            sent.push(m);
            await delivered;
          },
          close: () => {},
        },
      },
    });
  });
  afterAll(async () => {
    release();
    await t.close();
  });

  it('answers an existing account without waiting for the mail, so response time does not reveal the account', async () => {
    await t.request('POST', '/api/auth/register', { body: registration('slowmail') });
    const res = await t.request('POST', '/api/auth/request-password-reset', {
      body: { email: 'ashaslowmail@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, message: RESET_REQUESTED_MESSAGE });
    expect(sent.map((m) => m.to)).toEqual(['ashaslowmail@example.com']);
  });
});

describe('password reset when the mail transport fails', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      overrides: {
        mailer: {
          send: () => Promise.reject(new Error('smtp: connection refused')),
          close: () => {},
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers like for any address and logs the failure for the operator', async () => {
    await t.request('POST', '/api/auth/register', { body: registration('failmail') });
    const res = await t.request('POST', '/api/auth/request-password-reset', {
      body: { email: 'ashafailmail@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, message: RESET_REQUESTED_MESSAGE });
    await expect.poll(() => t.logs.some((l) => l.includes('password reset e-mail failed'))).toBe(true);
    expect(t.logs.join('')).not.toMatch(/reset-password\?token=/);
  });
});

describe('password reset in production without a mail transport', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { NODE_ENV: 'production', ...PRODUCTION_OPERATOR_ENV } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the neutral message for an existing account, and neither returns nor logs a link', async () => {
    await t.request('POST', '/api/auth/register', { body: registration('prod') });
    const res = await t.request('POST', '/api/auth/request-password-reset', {
      body: { email: 'ashaprod@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, message: RESET_REQUESTED_MESSAGE });
    const logs = t.logs.join('');
    expect(logs).not.toContain('reset-password?token=');
    expect(logs).toContain('npm run set-password');
  });
});

describe('password reset and login lockouts', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const loginFrom = (ip: string, password: string) =>
    t.request('POST', '/api/auth/login', {
      body: { email: 'ashalocked@example.com', password },
      headers: { 'x-forwarded-for': ip },
    });

  it('a completed reset lifts the lockout of the account', async () => {
    await t.request('POST', '/api/auth/register', { body: registration('locked') });
    for (let i = 0; i < 10; i++) expect((await loginFrom('203.0.113.9', 'Wrong1234')).status).toBe(401);
    expect((await loginFrom('203.0.113.9', 'Secret123')).status).toBe(429);

    const res = await t.request('POST', '/api/auth/request-password-reset', {
      body: { email: 'ashalocked@example.com' },
    });
    const link = res.json.resetLink as string;
    const done = await t.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link), newPassword: 'Unlocked2026' },
    });
    expect(done.status).toBe(200);
    expect((await loginFrom('203.0.113.9', 'Unlocked2026')).status).toBe(200);
  });
});
