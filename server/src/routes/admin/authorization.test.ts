// The authorization matrix, generated from the admin router's own route table: every admin route × {no token, a
// trader, an admin}. A new admin route is covered the moment it is added; one that skipped the guard fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestGateway } from '../../payments/gateway';
import { adminRouter } from './router';
import { startTestServer, type TestServer } from '../../testing/server';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';

interface RouteEntry {
  method: string;
  path: string;
}

/** Every method + concrete path of the admin router (`:id` → 1, `:settingName` → stopLoss, `:code` → monthly). */
function routeTable(t: TestServer): RouteEntry[] {
  const router = adminRouter(t.server.deps, { paymentGateway: createTestGateway('unused') });
  const out: RouteEntry[] = [];
  for (const layer of router.stack) {
    const path = String(layer.path)
      .replace(':settingName', 'stopLoss')
      .replace(':code', 'monthly')
      .replace(/:[a-zA-Z]+/g, '1');
    for (const method of layer.methods) if (method !== 'HEAD') out.push({ method, path: `/api${path}` });
  }
  return out;
}

describe('admin authorization matrix', () => {
  let t: TestServer;
  let admin: Caller;
  let trader: Caller;
  let routes: RouteEntry[];
  beforeAll(async () => {
    // The admin's broker tests (test-fyers) reach the broker's API root: the test server puts every broker on a
    // closed loopback port, never the internet.
    t = await startTestServer();
    admin = await signInFirstAdmin(t);
    trader = await registerTrader(t, 'matrix');
    routes = routeTable(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the spec §7 admin calls among its routes', () => {
    const keys = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const key of [
      'GET /api/admin/stats',
      'GET /api/admin/controls',
      'GET /api/admin/logs',
      'GET /api/admin/signals',
      'GET /api/admin/trades',
      'PUT /api/admin/control/stopLoss',
      'POST /api/admin/trading/pause',
      'POST /api/admin/trading/resume',
      'GET /api/admin/users',
      'PATCH /api/admin/users/1',
      'GET /api/admin/payments',
      'GET /api/admin/payment-requests',
      'PATCH /api/admin/payment-requests/1',
      'GET /api/admin/broker-status',
      'POST /api/admin/create-test-user',
      'POST /api/admin/test-fyers',
      'POST /api/admin/force-broker-disconnect',
      'GET /api/admin/notifications/deliveries',
      'POST /api/admin/notifications/test',
    ])
      expect(keys, key).toContain(key);
    expect(routes.length).toBeGreaterThan(30);
  });

  it('answers 401 without a token and 403 to a trader on every route, changing nothing', async () => {
    const before = await t.server.deps.db.knex('logs').count({ n: '*' });
    for (const { method, path } of routes) {
      const body = method === 'GET' ? undefined : {};
      const anonymous = await t.request(method, path, { body });
      expect(anonymous.status, `${method} ${path} without a token`).toBe(401);
      expect(anonymous.json.error).toBe('unauthenticated');
      const user = await t.request(method, path, { token: trader.token, body });
      expect(user.status, `${method} ${path} as a trader`).toBe(403);
      expect(user.json.error).toBe('forbidden');
    }
    expect(await t.server.deps.db.knex('logs').count({ n: '*' })).toEqual(before);
  });

  it('lets an admin through every read route', async () => {
    for (const { method, path } of routes.filter((r) => r.method === 'GET' && !r.path.includes('/1'))) {
      const res = await t.request(method, path, { token: admin.token });
      expect(res.status, `${method} ${path} as an admin: ${res.text.slice(0, 200)}`).toBe(200);
    }
  });

  it('gives an admin a 4xx with { error, message } for an empty body on every write route, never a 500', async () => {
    for (const { method, path } of routes.filter((r) => r.method !== 'GET')) {
      const res = await t.request(method, path, { token: admin.token, body: {} });
      expect(res.status, `${method} ${path}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      if (res.status >= 400) {
        expect(typeof res.json.error).toBe('string');
        expect(typeof res.json.message).toBe('string');
      }
    }
  });
});
