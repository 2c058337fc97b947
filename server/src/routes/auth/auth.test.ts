import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../db/testing';
import { listLogs, saveBrokerCredentials, updateBrokerAccount } from '../../db';
import { assertNoSecrets, registration, startTestServer, type TestServer } from '../../testing/server';

describe.each(testDialects())('auth API (%s)', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const register = async (n: number | string) => {
    const res = await t.request('POST', '/api/auth/register', { body: registration(n) });
    expect(res.status).toBe(201);
    return res.json as { token: string; user: { id: number; email: string } };
  };

  describe('POST /api/auth/register', () => {
    it('creates the account, returns a token and the user without secrets', async () => {
      const res = await t.request('POST', '/api/auth/register', { body: registration('reg') });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({
        success: true,
        user: {
          email: 'ashareg@example.com',
          firstName: 'Asha',
          lastName: 'Rao',
          phone: '+919876543210',
          isAdmin: false,
          subscriptionStatus: 'pending',
          brokerConnected: false,
        },
      });
      expect(typeof res.json.token).toBe('string');
      expect(Object.keys(res.json.user as object).sort()).toEqual(
        [
          'brokerConnected',
          'brokerType',
          'createdAt',
          'email',
          'firstName',
          'id',
          'isAdmin',
          'lastActive',
          'lastName',
          'phone',
          'subscriptionEndDate',
          'subscriptionStartDate',
          'subscriptionStatus',
        ].sort(),
      );
      assertNoSecrets(res.text);
    });

    it('refuses a duplicate e-mail (any case) with 409', async () => {
      await register('dup');
      const res = await t.request('POST', '/api/auth/register', {
        body: { ...registration('dup'), email: 'ASHADUP@Example.com' },
      });
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ error: 'email_taken', field: 'email' });
    });

    it.each([
      [
        { ...registration('v1'), email: 'not-an-email' },
        'email',
        'email: email must be a valid e-mail address',
      ],
      [
        { ...registration('v2'), password: 'NoDigitsHere' },
        'password',
        'password: Password must contain at least one number',
      ],
      [
        { ...registration('v3'), password: 'short1A' },
        'password',
        'password: Password must be at least 8 characters long',
      ],
      [{ ...registration('v4'), phone: '12345' }, 'phone', undefined],
      [{ ...registration('v5'), firstName: '' }, 'firstName', 'firstName: firstName is required'],
      [{ ...registration('v6'), firstName: 42 }, 'firstName', undefined],
      [{ lastName: 'x' }, 'firstName', 'firstName: firstName is required'],
    ])('400 naming the field for %j', async (body, field, message) => {
      const res = await t.request('POST', '/api/auth/register', { body });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('validation_failed');
      expect(res.json.field).toBe(field);
      expect(String(res.json.message).startsWith(`${field}: `)).toBe(true);
      if (message) expect(res.json.message).toBe(message);
    });
  });

  describe('POST /api/auth/login', () => {
    it('signs in with the right password and returns token and user.isAdmin', async () => {
      await register('login');
      const res = await t.request('POST', '/api/auth/login', {
        body: { email: 'ASHALOGIN@example.com ', password: 'Secret123' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        success: true,
        user: { email: 'ashalogin@example.com', isAdmin: false },
      });
      assertNoSecrets(res.text);
    });

    it('answers a wrong password and an unknown e-mail identically with 401', async () => {
      await register('wrongpw');
      const wrong = await t.request('POST', '/api/auth/login', {
        body: { email: 'ashawrongpw@example.com', password: 'Nope12345' },
      });
      const unknown = await t.request('POST', '/api/auth/login', {
        body: { email: 'nobody@example.com', password: 'Nope12345' },
      });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.json).toEqual(unknown.json);
      expect(wrong.json).toEqual({ error: 'invalid_credentials', message: 'Invalid credentials' });
    });

    it('spends argon2 work on an unknown e-mail too (a dummy verification), so timing reveals nothing', async () => {
      const passwords = t.server.deps.passwords;
      const original = passwords.verifyDummy;
      let dummyCalls = 0;
      passwords.verifyDummy = async (password) => {
        dummyCalls += 1;
        await original(password);
      };
      try {
        await t.request('POST', '/api/auth/login', {
          body: { email: 'ghost@example.com', password: 'Nope12345' },
        });
        expect(dummyCalls).toBe(1);
      } finally {
        passwords.verifyDummy = original;
      }
    });

    it('rejects invalid input with 400', async () => {
      const res = await t.request('POST', '/api/auth/login', { body: { email: 'a@b.co' } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'validation_failed', field: 'password' });
    });
  });

  describe('POST /api/auth/admin-login', () => {
    it('refuses a non-admin with 403 and a clear message, without a token', async () => {
      await register('nonadmin');
      const res = await t.request('POST', '/api/auth/admin-login', {
        body: { email: 'ashanonadmin@example.com', password: 'Secret123' },
      });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('admin_required');
      expect(res.json.message).toMatch(/admin access/);
      expect(res.json.token).toBeUndefined();
    });

    it('signs in an admin with { success, token, message, user }', async () => {
      const init = await t.request('POST', '/api/init-admin');
      expect(init.status).toBe(201);
      const res = await t.request('POST', '/api/auth/admin-login', {
        body: { email: init.json.email, password: init.json.password },
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        success: true,
        message: 'Admin login successful',
        user: { isAdmin: true },
      });
      expect(typeof res.json.token).toBe('string');
    });

    it('rejects a wrong password (401) and invalid input (400)', async () => {
      expect(
        (
          await t.request('POST', '/api/auth/admin-login', {
            body: { email: 'x@y.co', password: 'Wrong1234' },
          })
        ).status,
      ).toBe(401);
      expect((await t.request('POST', '/api/auth/admin-login', { body: [] })).status).toBe(400);
    });
  });

  describe('GET /api/auth/me', () => {
    it('401 without, with a malformed and with a forged token', async () => {
      expect((await t.request('GET', '/api/auth/me')).status).toBe(401);
      expect((await t.request('GET', '/api/auth/me', { token: 'garbage' })).status).toBe(401);
      const forged =
        'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwianRpIjoieCIsImV4cCI6OTk5OTk5OTk5OX0.c2lnbmF0dXJlLW5vdC12YWxpZA';
      expect((await t.request('GET', '/api/auth/me', { token: forged })).status).toBe(401);
    });

    it('returns the UserDto of the caller and records activity', async () => {
      const { token, user } = await register('me');
      const res = await t.request('GET', '/api/auth/me', { token });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id: user.id, email: 'ashame@example.com' });
      expect(res.json.lastActive).toBe(new Date(t.clock.now()).toISOString());
      assertNoSecrets(res.text);
    });

    it('reports the broker connection and never its credentials', async () => {
      const { token, user } = await register('broker');
      await saveBrokerCredentials(t.server.deps.db.knex, user.id, {
        broker_type: 'zerodha',
        api_key_enc: 'v1:sealed-key',
        api_secret_enc: 'v1:sealed-secret',
        api_key_last4: 'WXYZ',
      });
      const saved = await t.request('GET', '/api/auth/me', { token });
      expect(saved.json).toMatchObject({ brokerType: 'zerodha', brokerConnected: false });
      // brokerConnected is true only while the session is valid: a token whose expiry is still ahead.
      const expiresAt = t.clock.now() + 3_600_000;
      await updateBrokerAccount(t.server.deps.db.knex, user.id, {
        status: 'connected',
        access_token_enc: 'v1:sealed-token',
        token_expires_at: expiresAt,
      });
      const connected = await t.request('GET', '/api/auth/me', { token });
      expect(connected.json).toMatchObject({ brokerType: 'zerodha', brokerConnected: true });
      expect(connected.text).not.toMatch(/sealed|WXYZ/);
      t.clock.set(expiresAt);
      const lapsed = await t.request('GET', '/api/auth/me', { token });
      expect(lapsed.json).toMatchObject({ brokerType: 'zerodha', brokerConnected: false });
    });

    it('401 once the token has expired (JWT_TTL)', async () => {
      const { token } = await register('expiry');
      t.clock.advance(t.config.jwtTtlMs + 1000);
      const res = await t.request('GET', '/api/auth/me', { token });
      expect(res.status).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('401 without a token', async () => {
      expect((await t.request('POST', '/api/auth/logout')).status).toBe(401);
    });

    it('revokes the session: the same token is refused afterwards', async () => {
      const { token } = await register('logout');
      const other = (
        await t.request('POST', '/api/auth/login', {
          body: { email: 'ashalogout@example.com', password: 'Secret123' },
        })
      ).json.token as string;
      const res = await t.request('POST', '/api/auth/logout', { token });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ success: true, message: 'Logged out' });
      expect((await t.request('GET', '/api/auth/me', { token })).status).toBe(401);
      // Only that session ends: another device stays signed in.
      expect((await t.request('GET', '/api/auth/me', { token: other })).status).toBe(200);
    });
  });

  describe('POST /api/auth/change-password', () => {
    it('401 without a token', async () => {
      const res = await t.request('POST', '/api/auth/change-password', {
        body: { currentPassword: 'Secret123', newPassword: 'Better456' },
      });
      expect(res.status).toBe(401);
    });

    it('400 for a wrong current password and for a weak new one', async () => {
      const { token } = await register('cpbad');
      const wrong = await t.request('POST', '/api/auth/change-password', {
        token,
        body: { currentPassword: 'Wrong1234', newPassword: 'Better456' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.json).toMatchObject({ error: 'wrong_password', field: 'currentPassword' });
      const weak = await t.request('POST', '/api/auth/change-password', {
        token,
        body: { currentPassword: 'Secret123', newPassword: 'alllowercase1' },
      });
      expect(weak.status).toBe(400);
      expect(weak.json.field).toBe('newPassword');
    });

    it('changes the password, revokes every session and returns a fresh token', async () => {
      const { token } = await register('cp');
      const second = (
        await t.request('POST', '/api/auth/login', {
          body: { email: 'ashacp@example.com', password: 'Secret123' },
        })
      ).json.token as string;
      const res = await t.request('POST', '/api/auth/change-password', {
        token,
        body: { currentPassword: 'Secret123', newPassword: 'Better456' },
      });
      expect(res.status).toBe(200);
      assertNoSecrets(res.text);
      const fresh = res.json.token as string;
      expect((await t.request('GET', '/api/auth/me', { token })).status).toBe(401);
      expect((await t.request('GET', '/api/auth/me', { token: second })).status).toBe(401);
      expect((await t.request('GET', '/api/auth/me', { token: fresh })).status).toBe(200);
      const oldLogin = await t.request('POST', '/api/auth/login', {
        body: { email: 'ashacp@example.com', password: 'Secret123' },
      });
      expect(oldLogin.status).toBe(401);
      const newLogin = await t.request('POST', '/api/auth/login', {
        body: { email: 'ashacp@example.com', password: 'Better456' },
      });
      expect(newLogin.status).toBe(200);
    });
  });

  it('writes an audit entry for auth events without passwords or tokens', async () => {
    await register('audit');
    const logs = await listLogs(t.server.deps.db.knex, { eventType: 'auth', limit: 1000 });
    expect(logs.map((l) => l.description)).toEqual(
      expect.arrayContaining([
        'Account registered',
        'Signed in',
        'Sign-in failed',
        'Signed out',
        'Password changed',
      ]),
    );
    const dump = JSON.stringify(logs);
    expect(dump).not.toMatch(/Secret123|Better456|\$argon2|eyJ/);
  });

  it('never logs a password, a token or a hash', () => {
    const all = t.logs.join('');
    expect(all).not.toMatch(/Secret123|Better456|\$argon2|eyJhbGciOi/);
  });
});

describe('failed-login rate limiting', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('locks an account after 10 failures for 15 minutes (429 with Retry-After), then lets it try again', async () => {
    await t.request('POST', '/api/auth/register', { body: registration('rl') });
    const attempt = (password: string) =>
      t.request('POST', '/api/auth/login', { body: { email: 'asharl@example.com', password } });
    for (let i = 0; i < 10; i++) expect((await attempt('Wrong1234')).status).toBe(401);
    const locked = await attempt('Secret123');
    expect(locked.status).toBe(429);
    expect(locked.json.error).toBe('rate_limited');
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    t.clock.advance(retryAfter * 1000);
    expect((await attempt('Secret123')).status).toBe(200);
  });

  it('limits one address to 30 failures across accounts', async () => {
    t.clock.advance(16 * 60_000);
    for (let i = 0; i < 30; i++) {
      const res = await t.request('POST', '/api/auth/login', {
        body: { email: `spray${i}@example.com`, password: 'Wrong1234' },
      });
      expect(res.status).toBe(401);
    }
    const res = await t.request('POST', '/api/auth/login', {
      body: { email: 'spray-last@example.com', password: 'Wrong1234' },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
  });
});

describe('change-password guessing', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('limits wrong current passwords per account (429 with Retry-After), so a stolen token cannot guess it', async () => {
    const { token } = (await t.request('POST', '/api/auth/register', { body: registration('cpguess') }))
      .json as {
      token: string;
    };
    const attempt = (currentPassword: string) =>
      t.request('POST', '/api/auth/change-password', {
        token,
        body: { currentPassword, newPassword: 'Better456' },
      });
    for (let i = 0; i < 10; i++) expect((await attempt(`Guess${i}xyz`)).status).toBe(400);
    const locked = await attempt('Secret123');
    expect(locked.status).toBe(429);
    expect(locked.json.error).toBe('rate_limited');
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    t.clock.advance(retryAfter * 1000);
    expect((await attempt('Secret123')).status).toBe(200);
  });

  it('refuses an oversized current password with 400 naming the field, before any argon2 work', async () => {
    const { token } = (await t.request('POST', '/api/auth/register', { body: registration('cplong') }))
      .json as {
      token: string;
    };
    const res = await t.request('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: 'x'.repeat(100_000), newPassword: 'Better456' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'validation_failed', field: 'currentPassword' });
  });
});

describe('sign-up limit per IP address (REGISTER_LIMIT_PER_IP)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { REGISTER_LIMIT_PER_IP: '2' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 with Retry-After past the limit, creates nothing, and counts failed attempts too', async () => {
    expect((await t.request('POST', '/api/auth/register', { body: registration('lim1') })).status).toBe(201);
    // A refused attempt (duplicate e-mail) still spent a hash, so it counts.
    expect((await t.request('POST', '/api/auth/register', { body: registration('lim1') })).status).toBe(409);
    const refused = await t.request('POST', '/api/auth/register', { body: registration('lim2') });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ error: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: 'ashalim2@example.com', password: 'Secret123' },
    });
    expect(login.status).toBe(401); // the refused sign-up created no account

    t.clock.advance(60 * 60_000);
    expect((await t.request('POST', '/api/auth/register', { body: registration('lim2') })).status).toBe(201);
  });
});
