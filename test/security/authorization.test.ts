// The authorization matrix: every route of the real /api router × every kind of token. Without a valid token a
// non-public route answers 401; a user's token gets 403 on every admin route; valid tokens get past
// authorization on the routes of their audience. Routes come from the router itself (testing/routes.ts), so a
// route added later is in the matrix without anyone editing this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiRoutes, type ApiRoute } from '../../server/src/testing/routes';
import { startTestServer, type TestServer } from '../../server/src/testing/server';
import { audienceOf } from './routeTable';
import { BAD_TOKEN_KINDS, createAccount, tokenOf, type TokenKind } from './support';

let t: TestServer;
let routes: ApiRoute[];
let userId: number;
let adminId: number;

beforeAll(async () => {
  t = await startTestServer();
  // Ids in paths name nobody: an admin call on /api/admin/users/:id must not disable the matrix's own accounts.
  routes = listApiRoutes(t.server.deps, '999999');
  userId = await createAccount(t, 'matrix-user@example.com');
  adminId = await createAccount(t, 'matrix-admin@example.com', { isAdmin: true });
});
afterAll(async () => {
  await t.close();
});

async function call(route: ApiRoute, kind: TokenKind): Promise<number> {
  const token = await tokenOf(t, kind, kind === 'admin' ? adminId : userId);
  const res = await t.request(route.method, route.path, {
    ...(token === undefined ? {} : { token }),
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }),
  });
  expect(res.status, `${route.method} ${route.path} with ${kind}: ${res.text}`).toBeLessThan(500);
  return res.status;
}

describe('authorization matrix', () => {
  it('covers the whole router, and every route has an audience', () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
    const unclassified = routes
      .filter((r) => audienceOf(r) === undefined)
      .map((r) => `${r.method} ${r.pattern}`);
    expect(unclassified, 'add these to test/security/routeTable.ts').toEqual([]);
  });

  it('answers 401 on every non-public route to no, garbage, alg:none, wrong-key, expired and revoked tokens', async () => {
    for (const route of routes.filter((r) => audienceOf(r) !== 'public')) {
      for (const kind of BAD_TOKEN_KINDS) {
        expect(await call(route, kind), `${route.method} ${route.path} with ${kind}`).toBe(401);
      }
    }
  });

  it('answers 403 to a user token on every admin route, and lets an admin through', async () => {
    const admin = routes.filter((r) => audienceOf(r) === 'admin');
    expect(admin.map((r) => r.pattern)).toContain('/api/make-admin');
    for (const route of admin) {
      expect(await call(route, 'user'), `${route.method} ${route.path} as user`).toBe(403);
      expect([401, 403]).not.toContain(await call(route, 'admin'));
    }
  });

  it('lets users and admins through on user routes', async () => {
    for (const route of routes.filter((r) => audienceOf(r) === 'user')) {
      for (const kind of ['user', 'admin'] as const) {
        expect([401, 403], `${route.method} ${route.path} as ${kind}`).not.toContain(await call(route, kind));
      }
    }
  });

  it('never asks for a token on public routes, whatever token is sent', async () => {
    for (const route of routes.filter((r) => audienceOf(r) === 'public')) {
      for (const kind of [...BAD_TOKEN_KINDS, 'user'] as const) {
        // A wrong password on a sign-in route is a 401 of its own; the body here is empty, so it is a 400.
        expect([401, 403], `${route.method} ${route.path} with ${kind}`).not.toContain(
          await call(route, kind),
        );
      }
    }
  });
});
