import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { createMemoryRateLimiter } from './rateLimiter';
import { BUDGETS, accountIpSubject, clearLoginLockouts, takeBudgets } from './throttle';
import { AppError } from '../errors';

describe('memory rate limiter', () => {
  it('counts per key inside a window that starts at the first hit and then resets', async () => {
    const clock = createManualClock(0);
    const limiter = createMemoryRateLimiter(clock);
    expect(await limiter.hit('a', 1000)).toEqual({ count: 1, resetInMs: 1000 });
    clock.advance(400);
    expect(await limiter.hit('a', 1000)).toEqual({ count: 2, resetInMs: 600 });
    expect(await limiter.peek('b')).toEqual({ count: 0, resetInMs: 0 });
    clock.advance(600);
    expect(await limiter.peek('a')).toEqual({ count: 0, resetInMs: 0 });
    await limiter.hit('a', 1000);
    await limiter.reset('a');
    expect((await limiter.peek('a')).count).toBe(0);
  });

  it('takes at most `limit` attempts, even when they are all started at once', async () => {
    const limiter = createMemoryRateLimiter(createManualClock(0));
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.take('k', 10, 1000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect((await limiter.peek('k')).count).toBe(10);
  });

  it('refunds one attempt and forgets keys by prefix', async () => {
    const limiter = createMemoryRateLimiter(createManualClock(0));
    await limiter.take('x', 2, 1000);
    await limiter.take('x', 2, 1000);
    expect((await limiter.take('x', 2, 1000)).allowed).toBe(false);
    await limiter.refund('x');
    expect((await limiter.take('x', 2, 1000)).allowed).toBe(true);
    await limiter.hit('p:a', 1000);
    await limiter.hit('p:b', 1000);
    await limiter.hit('q:a', 1000);
    await limiter.resetPrefix('p:');
    expect([(await limiter.peek('p:a')).count, (await limiter.peek('p:b')).count]).toEqual([0, 0]);
    expect((await limiter.peek('q:a')).count).toBe(1);
  });
});

describe('attempt budgets', () => {
  it('turns an exhausted budget into a 429 with the seconds until the window resets', async () => {
    const clock = createManualClock(0);
    const limiter = createMemoryRateLimiter(clock);
    const checks = [[BUDGETS.passwordChangePerAccount, '7']] as const;
    for (let i = 0; i < BUDGETS.passwordChangePerAccount.limit; i++) await takeBudgets(limiter, checks);
    clock.advance(60_000);
    const err = await takeBudgets(limiter, checks).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(429);
    expect((err as AppError).retryAfterSeconds).toBe(14 * 60);
  });

  it('charges all budgets or none, and a refund gives the attempt back to each', async () => {
    const limiter = createMemoryRateLimiter(createManualClock(0));
    const small = { name: 'small', limit: 1, windowMs: 1000 };
    const big = { name: 'big', limit: 5, windowMs: 1000 };
    await takeBudgets(limiter, [[small, 's']]);
    await expect(
      takeBudgets(limiter, [
        [big, 'b'],
        [small, 's'],
      ]),
    ).rejects.toBeInstanceOf(AppError);
    expect((await limiter.peek('big:b')).count).toBe(0);
    const charge = await takeBudgets(limiter, [[big, 'b']]);
    expect((await limiter.peek('big:b')).count).toBe(1);
    await charge.refund();
    expect((await limiter.peek('big:b')).count).toBe(0);
  });

  it('lifts an account’s login lockouts from every address, and only that account’s', async () => {
    const limiter = createMemoryRateLimiter(createManualClock(0));
    const lock = (email: string, ip: string) =>
      limiter.hit(`${BUDGETS.loginPerAccountIp.name}:${accountIpSubject(email, ip)}`, 1000);
    await lock('a@x.co', '10.0.0.1');
    await lock('a@x.co', '10.0.0.2');
    await lock('b@x.co', '10.0.0.1');
    await limiter.hit(`${BUDGETS.loginPerAccount.name}:a@x.co`, 1000);
    await clearLoginLockouts(limiter, 'a@x.co');
    expect((await limiter.peek(`login:account-ip:a@x.co|10.0.0.2`)).count).toBe(0);
    expect((await limiter.peek(`login:account:a@x.co`)).count).toBe(0);
    expect((await limiter.peek(`login:account-ip:b@x.co|10.0.0.1`)).count).toBe(1);
  });
});
