import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { createMemoryRateLimiter } from './rateLimiter';
import { BUDGETS, assertWithinBudgets, chargeBudgets } from './throttle';
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

  it('turns an exhausted budget into a 429 with the seconds until the window resets', async () => {
    const clock = createManualClock(0);
    const limiter = createMemoryRateLimiter(clock);
    const checks = [[BUDGETS.loginPerAccount, 'x@y.co']] as const;
    for (let i = 0; i < BUDGETS.loginPerAccount.limit; i++) {
      await assertWithinBudgets(limiter, checks);
      await chargeBudgets(limiter, checks);
    }
    clock.advance(60_000);
    const err = await assertWithinBudgets(limiter, checks).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(429);
    expect((err as AppError).retryAfterSeconds).toBe(14 * 60);
  });
});
