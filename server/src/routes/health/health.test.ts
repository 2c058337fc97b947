import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/server';

describe('GET /api/health', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports ok with a real database round trip', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 'ok',
      version: t.config.version,
      subsystems: { database: { status: 'ok', detail: 'sqlite' } },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('includes subsystems registered later, degraded without failing the check', async () => {
    t.server.deps.health.register('feed', () => ({ status: 'degraded', detail: 'no tick for 30 s' }));
    t.server.deps.health.register('payments', () => {
      throw new Error('gateway probe crashed');
    });
    const res = await t.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('degraded');
    expect(res.json.subsystems).toMatchObject({
      feed: { status: 'degraded', detail: 'no tick for 30 s' },
      payments: { status: 'down' },
    });
  });

  it('answers 503 when the database is down', async () => {
    const other = await startTestServer();
    try {
      await other.server.deps.db.knex.destroy();
      const res = await other.request('GET', '/api/health');
      expect(res.status).toBe(503);
      expect(res.json.status).toBe('down');
      expect((res.json.subsystems as Record<string, { status: string }>).database).toEqual({
        status: 'down',
        detail: 'sqlite: not answering',
      });
      // The driver's reason is logged, not published.
      expect(other.logs.join('')).toContain('database health check failed');
    } finally {
      await other.close();
    }
  });
});
