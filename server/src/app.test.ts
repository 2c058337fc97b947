import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './auth/rateLimiter';
import { systemClock } from './clock';
import { startTestServer, type TestServer } from './testing/server';

describe('HTTP app', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends a strict CSP and the other security headers on every response', async () => {
    for (const path of ['/api/health', '/', '/api/nope']) {
      const res = await t.request('GET', path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      // only this origin's WebSocket (PUBLIC_URL's), never any ws:/wss: host
      expect(csp).toContain(`connect-src 'self' ws://${new URL(t.config.publicUrl).host};`);
      expect(csp).not.toMatch(/ wss?:[ ;]/);
      // plain HTTP (no https PUBLIC_URL): no pin
      expect(res.headers.get('strict-transport-security')).toBeNull();
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'self'");
      expect(csp).not.toContain('razorpay');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('gives each request an id, echoing a sane incoming one', async () => {
    const own = await t.request('GET', '/api/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(own.headers.get('x-request-id')).toBe('abc-123');
    const fresh = await t.request('GET', '/api/health', { headers: { 'x-request-id': 'bad id\twith junk' } });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown /api routes with a JSON 404', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['POST', '/api/auth/nothing'],
      ['GET', '/api'],
      ['GET', '/api/auth/login'],
    ] as const) {
      const res = await t.request(method, path);
      expect(res.status).toBe(404);
      expect(res.json.error).toBe('not_found');
    }
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await t.request('POST', '/api/auth/login', { rawBody: '{"email": ' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('malformed_json');
    const huge = await t.request('POST', '/api/auth/login', {
      rawBody: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.json.error).toBe('payload_too_large');
  });

  it.each([
    { body: null },
    { body: [] },
    { body: [1, 2] },
    { body: 'text' },
    { body: 42 },
    { body: true },
    { body: { email: null, password: null } },
    { body: { email: ['a@b.co'] } },
  ])('answers the body $body with a 400 that names the field', async ({ body }) => {
    const res = await t.request('POST', '/api/auth/register', { rawBody: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(typeof res.json.message).toBe('string');
    expect(res.json.error === 'malformed_json' || /^[\w.]+: /.test(String(res.json.message))).toBe(true);
  });

  it('never answers arbitrary JSON with a 5xx on any public POST endpoint', async () => {
    const endpoints = [
      '/api/auth/register',
      '/api/auth/login',
      '/api/auth/admin-login',
      '/api/auth/request-password-reset',
      '/api/auth/reset-password',
      '/api/make-admin',
      '/api/auth/change-password',
      '/api/auth/logout',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), fc.jsonValue({ maxDepth: 3 }), async (path, body) => {
        const res = await t.request('POST', path, { rawBody: JSON.stringify(body) });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(typeof res.json.error).toBe('string');
      }),
      { numRuns: 60 },
    );
  });

  it('serves GET /api/config with only the public settings', async () => {
    const res = await t.request('GET', '/api/config');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      version: expect.any(String),
      paymentTestMode: true,
      razorpayKeyId: null,
      feed: { kind: 'sim', simulated: true },
      sessionMode: 'always',
      // NODE_ENV=test leaves the visitors' demo off unless DEMO_ACCOUNT asks for it.
      demoAvailable: false,
      // The operator's public business details (issue 11), never a secret.
      operator: expect.objectContaining({
        legalName: expect.any(String),
        supportEmail: expect.any(String),
        supportHours: expect.any(String),
      }),
    });
  });

  it('serves a build-missing page for app routes when web/dist does not exist', async () => {
    const res = await t.request('GET', '/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('npm run build');
  });
});

describe('web app serving', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    // The harness points WEB_DIST_DIR at <DATA_DIR>/no-web-build; create a build there.
    const dist = t.config.webDistDir;
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">spa-index</div>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
    writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
  });
  afterAll(async () => {
    await t.close();
  });

  it('caches hashed assets for a year and revalidates other files', async () => {
    const asset = await t.request('GET', '/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log("app")');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await t.request('GET', '/favicon.svg');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('falls back to index.html for client-side routes, never for /api or missing files', async () => {
    for (const path of ['/', '/admin/users', '/reset-password?token=abc', '/dashboard']) {
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.text).toContain('spa-index');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
    expect((await t.request('GET', '/assets/missing-999.js')).status).toBe(404);
    const api = await t.request('GET', '/api/unknown');
    expect(api.status).toBe(404);
    expect(api.json.error).toBe('not_found');
  });

  it('does not let a path escape the build folder', async () => {
    const res = await fetch(`${t.url}/..%2f..%2fpackage.json`);
    expect(await res.text()).not.toContain('"name"');
  });
});

describe('unexpected errors', () => {
  it('answer 500 with a generic message and the request id; details only in the log', async () => {
    const limiter = createMemoryRateLimiter(systemClock);
    limiter.take = async () => {
      throw new Error('limiter store exploded: secret internals');
    };
    const t = await startTestServer({ overrides: { limiter } });
    try {
      const res = await t.request('POST', '/api/auth/login', { body: { email: 'a@b.co', password: 'x' } });
      expect(res.status).toBe(500);
      expect(res.json.error).toBe('internal');
      const requestId = res.headers.get('x-request-id') ?? '';
      expect(res.json.message).toContain(requestId);
      expect(res.text).not.toContain('exploded');
      expect(t.logs.some((l) => l.includes('exploded') && l.includes(requestId))).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('CSP with Razorpay keys', () => {
  it('allows the checkout host for scripts and frames', async () => {
    const t = await startTestServer({
      env: { RAZORPAY_KEY_ID: 'rzp_test_abc123', RAZORPAY_KEY_SECRET: 'secretsecret' },
    });
    try {
      const res = await t.request('GET', '/api/health');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self' https://checkout.razorpay.com");
      expect(csp).toMatch(/frame-src [^;]*https:\/\/api\.razorpay\.com/);
      expect(csp).toMatch(/connect-src 'self' ws:\/\/[^ ;]+ [^;]*https:\/\/api\.razorpay\.com/);
      const config = await t.request('GET', '/api/config');
      expect(config.json).toMatchObject({ paymentTestMode: false, razorpayKeyId: 'rzp_test_abc123' });
      expect(config.text).not.toContain('secretsecret');
    } finally {
      await t.close();
    }
  });

  it('follows RAZORPAY_CHECKOUT_URL to the one origin it names, and allows no checkout host in test mode', async () => {
    const t = await startTestServer({
      env: {
        RAZORPAY_KEY_ID: 'rzp_test_abc123',
        RAZORPAY_KEY_SECRET: 'secretsecret',
        RAZORPAY_CHECKOUT_URL: 'http://127.0.0.1:4999/v1/checkout.js',
      },
    });
    const plain = await startTestServer();
    try {
      const csp = (await t.request('GET', '/api/health')).headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self' http://127.0.0.1:4999;");
      expect(csp).not.toContain('checkout.razorpay.com');
      const none = (await plain.request('GET', '/api/health')).headers.get('content-security-policy') ?? '';
      expect(none).toContain("script-src 'self';");
      expect(none).toContain("frame-src 'none'");
    } finally {
      await t.close();
      await plain.close();
    }
  });
});

describe('behind HTTPS (PUBLIC_URL https://…)', () => {
  it('pins HTTPS with HSTS and allows only the own origin’s wss: for sockets', async () => {
    const t = await startTestServer({ env: { PUBLIC_URL: 'https://trade.example.in' } });
    try {
      for (const path of ['/api/health', '/', '/api/nope']) {
        const res = await t.request('GET', path);
        expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("connect-src 'self' wss://trade.example.in;");
        expect(csp).not.toContain('ws://');
      }
    } finally {
      await t.close();
    }
  });

  it('keeps a non-default port in the socket origin', async () => {
    const t = await startTestServer({ env: { PUBLIC_URL: 'https://trade.example.in:8443/' } });
    try {
      const csp = (await t.request('GET', '/api/health')).headers.get('content-security-policy') ?? '';
      expect(csp).toContain("connect-src 'self' wss://trade.example.in:8443;");
    } finally {
      await t.close();
    }
  });
});
