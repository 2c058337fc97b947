import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/server';

describe('GET /api/ping', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers { ok: true } without a sign-in, uncached', async () => {
    const res = await t.request('GET', '/api/ping');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('ignores a bad token instead of answering 401: it checks nothing by design', async () => {
    const res = await t.request('GET', '/api/ping', { token: 'not-a-token' });
    expect(res.status).toBe(200);
  });

  it('is GET only: other methods fall through to the API 404', async () => {
    const res = await t.request('POST', '/api/ping', { body: {} });
    expect(res.status).toBe(404);
    expect(res.json).not.toEqual({ ok: true });
  });
});
