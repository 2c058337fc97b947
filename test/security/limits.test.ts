// Concurrency tests for every attempt limit: N requests started at once must not get more than the limit through,
// because each attempt is charged atomically before the (slow) work. Before issue 12 the login and change-password
// limits were checked before the Argon2 verify and charged after it, so 40 parallel guesses all got a 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS } from '../../server/src/auth/throttle';
import { createMemoryRateLimiter } from '../../server/src/auth/rateLimiter';
import { systemClock } from '../../server/src/clock';
import { connected, openSocket } from '../../server/src/testing/socket';
import { registration, startTestServer, type TestServer } from '../../server/src/testing/server';

const PARALLEL = 40;

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

const inParallel = <T>(work: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: PARALLEL }, (_, i) => work(i)));

describe('attempt limits under concurrency', () => {
  let t: TestServer;
  const limiter = createMemoryRateLimiter(systemClock);
  beforeAll(async () => {
    t = await startTestServer({ env: { TRUST_PROXY: 'true' }, overrides: { limiter } });
  });
  afterAll(async () => {
    await t.close();
  });

  const register = async (n: string) => {
    const res = await t.request('POST', '/api/auth/register', {
      body: registration(n),
      headers: { 'x-forwarded-for': `198.51.100.${n.length}` },
    });
    expect(res.status).toBe(201);
    return res.json.token as string;
  };
  const login = (email: string, password: string, ip: string) =>
    t.request('POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

  it(`login: of ${PARALLEL} parallel wrong passwords at most ${BUDGETS.loginPerAccountIp.limit} are checked, the rest get 429`, async () => {
    await register('par');
    const statuses = (await inParallel(() => login('ashapar@example.com', 'Wrong1234', '203.0.113.1'))).map(
      (r) => r.status,
    );
    const counts = tally(statuses);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(BUDGETS.loginPerAccountIp.limit);
    expect(counts[401] ?? 0).toBeGreaterThan(0);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(PARALLEL);
  });

  it('login: a stranger locked out at one address does not lock the owner out at another', async () => {
    await register('own');
    for (let i = 0; i < BUDGETS.loginPerAccountIp.limit; i++)
      await login('ashaown@example.com', 'Wrong1234', '203.0.113.2');
    expect((await login('ashaown@example.com', 'Secret123', '203.0.113.2')).status).toBe(429);
    expect((await login('ashaown@example.com', 'Secret123', '192.0.2.77')).status).toBe(200);
  });

  it('login: the slower global per-account budget stops guessing spread over many addresses', async () => {
    await register('glob');
    for (let i = 0; i < BUDGETS.loginPerAccount.limit; i++) {
      await limiter.hit(
        `${BUDGETS.loginPerAccount.name}:ashaglob@example.com`,
        BUDGETS.loginPerAccount.windowMs,
      );
    }
    // An address gets only its few attempts past a used-up account budget (test/security/lockout.test.ts).
    for (let i = 0; i < BUDGETS.loginFewPerAccountIp.limit; i++)
      expect((await login('ashaglob@example.com', 'Wrong1234', '192.0.2.200')).status).toBe(401);
    expect((await login('ashaglob@example.com', 'Wrong1234', '192.0.2.200')).status).toBe(429);
  });

  it(`login: of ${PARALLEL} parallel guesses from a fresh address past a used-up account budget, only its few are checked`, async () => {
    await register('few');
    for (let i = 0; i < BUDGETS.loginPerAccount.limit; i++) {
      await limiter.hit(
        `${BUDGETS.loginPerAccount.name}:ashafew@example.com`,
        BUDGETS.loginPerAccount.windowMs,
      );
    }
    const counts = tally(
      (await inParallel(() => login('ashafew@example.com', 'Wrong1234', '192.0.2.201'))).map((r) => r.status),
    );
    expect(counts[401]).toBe(BUDGETS.loginFewPerAccountIp.limit);
    expect(counts[429]).toBe(PARALLEL - BUDGETS.loginFewPerAccountIp.limit);
  });

  it('login: successful sign-ins are refunded: only failures use up the budgets', async () => {
    await register('ok');
    expect((await login('ashaok@example.com', 'Wrong1234', '203.0.113.3')).status).toBe(401);
    for (let i = 0; i < 3; i++) {
      expect((await login('ashaok@example.com', 'Secret123', '203.0.113.3')).status).toBe(200);
    }
    // Only the failed attempt stays charged, to the address and to the account.
    expect((await limiter.peek(`${BUDGETS.loginPerIp.name}:203.0.113.3`)).count).toBe(1);
    expect((await limiter.peek(`${BUDGETS.loginPerAccount.name}:ashaok@example.com`)).count).toBe(1);
  });

  it(`change-password: of ${PARALLEL} parallel wrong current passwords at most ${BUDGETS.passwordChangePerAccount.limit} are checked`, async () => {
    const token = await register('chg');
    const statuses = (
      await inParallel(() =>
        t.request('POST', '/api/auth/change-password', {
          token,
          body: { currentPassword: 'Wrong1234', newPassword: 'Fresh2026x' },
        }),
      )
    ).map((r) => r.status);
    const counts = tally(statuses);
    expect(counts[400] ?? 0).toBeLessThanOrEqual(BUDGETS.passwordChangePerAccount.limit);
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(PARALLEL);
  });

  it(`reset request: of ${PARALLEL} parallel requests for one e-mail at most ${BUDGETS.resetRequestPerEmail.limit} are served`, async () => {
    const statuses = (
      await inParallel((i) =>
        t.request('POST', '/api/auth/request-password-reset', {
          body: { email: 'someone@example.com' },
          headers: { 'x-forwarded-for': `198.18.0.${i}` },
        }),
      )
    ).map((r) => r.status);
    const counts = tally(statuses);
    expect(counts[200]).toBe(BUDGETS.resetRequestPerEmail.limit);
    expect(counts[429]).toBe(PARALLEL - BUDGETS.resetRequestPerEmail.limit);
  });

  it(`sync: of ${PARALLEL} parallel sync requests on one socket at most ${BUDGETS.syncPerSocket.limit} are answered`, async () => {
    const token = await register('sync');
    const socket = await connected(openSocket(t.url, token));
    try {
      const acks = await inParallel(
        () =>
          new Promise<{ ok: boolean; error?: string }>((resolve) => {
            socket.emit('sync:request', { topics: ['bot'] }, resolve);
          }),
      );
      expect(acks.filter((a) => a.ok).length).toBe(BUDGETS.syncPerSocket.limit);
      expect(acks.filter((a) => a.error === 'rate_limited').length).toBe(
        PARALLEL - BUDGETS.syncPerSocket.limit,
      );
    } finally {
      socket.disconnect();
    }
  });
});

describe('sign-up limit under concurrency', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { REGISTER_LIMIT_PER_IP: '5' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it(`of ${PARALLEL} parallel sign-ups from one address at most 5 create an account`, async () => {
    const statuses = (
      await inParallel((i) => t.request('POST', '/api/auth/register', { body: registration(`burst${i}`) }))
    ).map((r) => r.status);
    const counts = tally(statuses);
    expect(counts[201]).toBe(5);
    expect(counts[429]).toBe(PARALLEL - 5);
    const [{ n }] = (await t.server.deps.db.knex('users').count({ n: '*' })) as [{ n: number }];
    expect(Number(n)).toBe(5);
  });
});
