import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../db';
import { listApiRoutes } from '../testing/routes';
import { registration, startTestServer, type TestServer } from '../testing/server';

describe('request policy: JSON bodies only, OPTIONS answered', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer();
    const res = await t.request('POST', '/api/auth/register', { body: registration('policy') });
    token = res.json.token as string;
  });
  afterAll(async () => {
    await t.close();
  });

  const errorLines = () => t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
  const bodyRoutes = () =>
    listApiRoutes(t.server.deps).filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method));

  it.each(['gzip', 'deflate', 'br', 'x-gzip'])(
    'refuses Content-Encoding %s on every body route with 415 and no error log, signed in or not',
    async (encoding) => {
      const routes = bodyRoutes();
      expect(routes.length).toBeGreaterThan(10);
      for (const route of routes) {
        for (const auth of [{}, { token }]) {
          const res = await t.request(route.method, route.path, {
            ...auth,
            rawBody: '{"email":"a@b.co","password":"x"}',
            headers: { 'content-encoding': encoding },
          });
          expect(res.status, `${route.method} ${route.path}`).toBe(415);
          expect(res.json).toMatchObject({ error: 'unsupported_media_type' });
          expect(res.json.message).toContain('Content-Encoding');
        }
      }
      expect(errorLines()).toEqual([]);
    },
  );

  it('refuses a really compressed JSON body too (compressed bodies are not accepted)', async () => {
    const res = await fetch(`${t.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ email: 'a@b.co', password: 'x' })),
    });
    expect(res.status).toBe(415);
  });

  it.each([
    ['text/plain', JSON.stringify(registration('plain'))],
    ['application/x-www-form-urlencoded', new URLSearchParams(registration('form')).toString()],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.co\r\n--x--',
    ],
  ])('refuses a %s body with 415 and creates nothing', async (type, rawBody) => {
    const res = await t.request('POST', '/api/auth/register', { rawBody, headers: { 'content-type': type } });
    expect(res.status).toBe(415);
    expect(res.json).toMatchObject({ error: 'unsupported_media_type' });
    expect(await findUserByEmail(t.server.deps.db.knex, 'ashaplain@example.com')).toBeUndefined();
    expect(await findUserByEmail(t.server.deps.db.knex, 'ashaform@example.com')).toBeUndefined();
  });

  it('accepts JSON with a charset and bodiless POSTs', async () => {
    const json = await t.request('POST', '/api/auth/request-password-reset', {
      rawBody: '{"email":"x@example.com"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(json.status).toBe(200);
    const other = await t.request('POST', '/api/auth/register', { body: registration('bodiless') });
    const logout = await t.request('POST', '/api/auth/logout', { token: other.json.token as string });
    expect(logout.status).toBe(200);
  });

  it('answers OPTIONS with 204 and the allowed methods on every route, 404 on unknown paths', async () => {
    for (const route of listApiRoutes(t.server.deps)) {
      const res = await t.request('OPTIONS', route.path);
      expect(res.status, route.path).toBe(204);
      const allow = (res.headers.get('allow') ?? '').split(', ');
      expect(allow).toContain(route.method);
      expect(allow).toContain('OPTIONS');
    }
    const user = await t.request('OPTIONS', '/api/user/settings');
    expect(user.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT']);
    expect((await t.request('OPTIONS', '/api/no-such-thing')).status).toBe(404);
  });
});
