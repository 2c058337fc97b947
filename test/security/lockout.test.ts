// Issue 21, item 1: guessing spread over many addresses must not lock the owner out. The attack the 2026-11-25
// pass ran — 12 source addresses × 10 wrong passwords — used up the account's budget of 100 an hour, and the right
// password from a fresh address got 429. Now the account budget binds only addresses that have used up their few
// attempts at the account, so the owner gets in while every attacking address stays refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS } from '../../server/src/auth/throttle';
import { testDialects } from '../../server/src/db/testing';
import { registration, startTestServer, type TestServer } from '../../server/src/testing/server';

const ATTACKERS = Array.from({ length: 12 }, (_, i) => `198.51.100.${i + 1}`);
const GUESSES = 10;
const EMAIL = 'ashavictim@example.com';
const PASSWORD = 'Secret123';

describe.each(testDialects())('distributed lockout (%s)', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    // The tests' clients are all 127.0.0.1: X-Forwarded-For (trusted with TRUST_PROXY) gives each one its address.
    t = await startTestServer({ dialect, env: { TRUST_PROXY: 'true' } });
    expect((await t.request('POST', '/api/auth/register', { body: registration('victim') })).status).toBe(
      201,
    );
  });
  afterAll(async () => {
    await t.close();
  });

  const login = (password: string, ip: string) =>
    t.request('POST', '/api/auth/login', {
      body: { email: EMAIL, password },
      headers: { 'x-forwarded-for': ip },
    });

  it('12 addresses × 10 wrong passwords, then the right password from a fresh address gets in', async () => {
    const statuses: number[] = [];
    for (const ip of ATTACKERS)
      for (let i = 0; i < GUESSES; i++) statuses.push((await login('Wrong1234', ip)).status);
    // Every guess was either checked (401) or refused (429); the account's budget was used up on the way.
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const late = statuses.slice(-GUESSES);
    expect(late.filter((s) => s === 401)).toHaveLength(BUDGETS.loginFewPerAccountIp.limit);

    const owner = await login(PASSWORD, '192.0.2.10');
    expect(owner.status).toBe(200);
    expect(typeof owner.json.token).toBe('string');
  });

  it('the attacking addresses stay refused, even with the right password, past their own lockout', async () => {
    for (const ip of ATTACKERS) expect((await login(PASSWORD, ip)).status).toBe(429);
    // Past the 15-minute lockout per address, the account's hourly budget still refuses them: only addresses
    // that have not been guessing get the few attempts the account budget never refuses.
    t.clock.advance(BUDGETS.loginPerAccountIp.windowMs + 1000);
    const retry = await login('Wrong1234', ATTACKERS[0]!);
    expect(retry.status).toBe(429);
    expect(Number(retry.headers.get('retry-after'))).toBeGreaterThan(0);
    // A fresh address gets its few guesses, then is refused like the rest.
    const fresh = '203.0.113.99';
    for (let i = 0; i < BUDGETS.loginFewPerAccountIp.limit; i++)
      expect((await login('Wrong1234', fresh)).status).toBe(401);
    expect((await login('Wrong1234', fresh)).status).toBe(429);
  });

  it('the e-mailed reset link lifts the lockout for every address, once', async () => {
    const res = await t.request('POST', '/api/auth/request-password-reset', {
      body: { email: EMAIL },
      headers: { 'x-forwarded-for': '192.0.2.10' },
    });
    const token = new URL(res.json.resetLink as string).searchParams.get('token') ?? '';
    const reset = (newPassword: string) =>
      t.request('POST', '/api/auth/reset-password', {
        body: { token, newPassword },
        headers: { 'x-forwarded-for': '192.0.2.10' },
      });
    expect((await reset('Fresh2026')).status).toBe(200);
    expect((await reset('Other2026')).status).toBe(400);
    expect((await login('Fresh2026', ATTACKERS[0]!)).status).toBe(200);
  });
});
