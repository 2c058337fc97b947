import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../db/testing';
import { passwordSchema } from '../../contract';
import { assertNoSecrets, registration, startTestServer, type TestServer } from '../../testing/server';

describe.each(testDialects())('admin bootstrap (%s)', (dialect) => {
  let t: TestServer;
  let adminToken: string;
  let userToken: string;
  beforeAll(async () => {
    t = await startTestServer({ dialect, env: { PUBLIC_URL: 'https://trade.example.in' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('POST /api/init-admin creates admin@<PUBLIC_URL domain> with a strong generated password, once', async () => {
    const res = await t.request('POST', '/api/init-admin');
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ success: true, email: 'admin@trade.example.in' });
    const password = res.json.password as string;
    expect(passwordSchema.safeParse(password).success).toBe(true);
    expect(password.length).toBeGreaterThanOrEqual(20);
    assertNoSecrets(res.text);

    const login = await t.request('POST', '/api/auth/admin-login', {
      body: { email: 'admin@trade.example.in', password },
    });
    expect(login.status).toBe(200);
    adminToken = login.json.token as string;

    const again = await t.request('POST', '/api/init-admin');
    expect(again.status).toBe(409);
    expect(again.json.error).toBe('admin_exists');
    expect(again.json.password).toBeUndefined();
  });

  describe('POST /api/make-admin', () => {
    beforeAll(async () => {
      userToken = (await t.request('POST', '/api/auth/register', { body: registration('promote') })).json
        .token as string;
    });

    it('401 without a token', async () => {
      const res = await t.request('POST', '/api/make-admin', { body: { email: 'ashapromote@example.com' } });
      expect(res.status).toBe(401);
    });

    it('403 for a non-admin', async () => {
      const res = await t.request('POST', '/api/make-admin', {
        token: userToken,
        body: { email: 'ashapromote@example.com' },
      });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('forbidden');
    });

    it('400 for an invalid e-mail and a missing body', async () => {
      const bad = await t.request('POST', '/api/make-admin', { token: adminToken, body: { email: 'x' } });
      expect(bad.status).toBe(400);
      expect(bad.json.field).toBe('email');
      const none = await t.request('POST', '/api/make-admin', { token: adminToken });
      expect(none.status).toBe(400);
    });

    it('404 for an unknown e-mail', async () => {
      const res = await t.request('POST', '/api/make-admin', {
        token: adminToken,
        body: { email: 'nobody@example.com' },
      });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe('user_not_found');
    });

    it('promotes a user; the promoted user then sees isAdmin and may use admin-login', async () => {
      const res = await t.request('POST', '/api/make-admin', {
        token: adminToken,
        body: { email: 'AshaPromote@example.com' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ success: true, message: 'ashapromote@example.com is now an admin' });
      const me = await t.request('GET', '/api/auth/me', { token: userToken });
      expect(me.json.isAdmin).toBe(true);
      const again = await t.request('POST', '/api/make-admin', {
        token: adminToken,
        body: { email: 'ashapromote@example.com' },
      });
      expect(again.json.message).toBe('ashapromote@example.com is already an admin');
    });
  });
});

describe('init-admin e-mail', () => {
  it('uses ADMIN_EMAIL when configured and optionpilot.local for a bare host', async () => {
    const configured = await startTestServer({ env: { ADMIN_EMAIL: 'Ops@Example.com' } });
    const bare = await startTestServer();
    try {
      expect((await configured.request('POST', '/api/init-admin')).json.email).toBe('ops@example.com');
      expect((await bare.request('POST', '/api/init-admin')).json.email).toBe('admin@optionpilot.local');
    } finally {
      await configured.close();
      await bare.close();
    }
  });

  it('refuses to take over a registered account that holds the admin address', async () => {
    const t = await startTestServer();
    try {
      await t.request('POST', '/api/auth/register', {
        body: { ...registration('squat'), email: 'admin@optionpilot.local' },
      });
      const res = await t.request('POST', '/api/init-admin');
      expect(res.status).toBe(409);
      expect(res.json.error).toBe('email_taken');
      expect(res.json.password).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
