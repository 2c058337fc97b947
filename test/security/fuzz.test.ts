// Property-based fuzzing of every route's body (from its own zod schema, found on the route's validator) and of
// every GET route's query: invalid input always gets a 4xx, never a 5xx, and leaves every table as it was. Bounded
// to a few hundred requests so the suite stays within seconds.
import fc from 'fast-check';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodySchemaOf } from '../../server/src/middleware/validate';
import { listApiRoutes, type ApiRoute } from '../../server/src/testing/routes';
import { startTestServer, type TestServer } from '../../server/src/testing/server';
import { createAccount, databaseFingerprint, mintToken } from './support';

const RUNS_PER_ROUTE = 10;

let t: TestServer;
let token: string;
/** the database's fingerprint after the last request: each check hashes the tables once, not twice */
let fingerprint: string;

beforeAll(async () => {
  t = await startTestServer();
  const adminId = await createAccount(t, 'fuzz-admin@example.com', { isAdmin: true });
  // An admin passes every policy, so each body reaches its route's validator.
  token = (await mintToken(t, adminId)).token;
  await t.request('GET', '/api/auth/me', { token }); // the once-a-minute activity write happens now, not mid-run
  fingerprint = await databaseFingerprint(t);
});
afterAll(async () => {
  await t.close();
});

/** Strings an attacker likes: control, zero-width and bidi characters, huge and odd numbers, prototype keys. */
const nasty = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    '\u0000',
    'a\u200bb',
    '\u202eevil',
    '\ufeff',
    'x'.repeat(10_000),
    '__proto__',
    'constructor',
  ),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308, -1),
);

/** Objects with the schema's own keys (any subset) holding arbitrary values, or arbitrary JSON altogether. */
function bodiesFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const keyed =
    shape === undefined
      ? fc.jsonValue()
      : fc.record(Object.fromEntries(Object.keys(shape).map((key) => [key, nasty])), { requiredKeys: [] });
  return fc.oneof(keyed, fc.jsonValue(), fc.dictionary(fc.string(), nasty));
}

async function expectRefusedWithoutChange(
  route: ApiRoute,
  send: () => Promise<{ status: number; text: string }>,
  valid: boolean,
) {
  const before = fingerprint;
  const res = await send();
  fingerprint = await databaseFingerprint(t);
  expect(res.status, `${route.method} ${route.path}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (valid) return; // a valid body may legitimately change state; only its status is checked
  expect(
    res.status,
    `${route.method} ${route.path} accepted invalid input: ${res.text.slice(0, 300)}`,
  ).toBeGreaterThanOrEqual(400);
  expect(fingerprint, `${route.method} ${route.path} changed the database`).toBe(before);
}

describe('fuzzing', () => {
  it('every route with a body: invalid bodies get a 4xx and change nothing; nothing gets a 5xx', async () => {
    const routes = listApiRoutes(t.server.deps).filter((r) => bodySchemaOf(r.stack) !== undefined);
    expect(routes.length).toBeGreaterThanOrEqual(15);
    for (const route of routes) {
      const schema = bodySchemaOf(route.stack);
      if (schema === undefined) continue;
      await fc.assert(
        fc.asyncProperty(bodiesFor(schema), async (body) => {
          await expectRefusedWithoutChange(
            route,
            () => t.request(route.method, route.path, { token, rawBody: JSON.stringify(body ?? null) }),
            schema.safeParse(body).success,
          );
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
  });

  it('every GET route: arbitrary query strings never get a 5xx nor change anything', async () => {
    const routes = listApiRoutes(t.server.deps).filter((r) => r.method === 'GET');
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.string({ minLength: 1 }), fc.oneof(fc.string(), fc.constant('\u0000'))),
          async (query) => {
            const before = fingerprint;
            const res = await t.request('GET', `${route.path}?${new URLSearchParams(query).toString()}`, {
              token,
            });
            fingerprint = await databaseFingerprint(t);
            expect(
              res.status,
              `GET ${route.path}?${JSON.stringify(query)}: ${res.text.slice(0, 200)}`,
            ).toBeLessThan(500);
            expect(fingerprint, `GET ${route.path} changed the database`).toBe(before);
          },
        ),
        { numRuns: RUNS_PER_ROUTE / 2 },
      );
    }
  });

  it('malformed JSON text on every body route is a 400, never a 5xx', async () => {
    const routes = listApiRoutes(t.server.deps).filter((r) => r.method !== 'GET');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.string(), async (route, text) => {
        const res = await t.request(route.method, route.path, { token, rawBody: `{${text}` });
        expect(res.status, `${route.method} ${route.path}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });
});
