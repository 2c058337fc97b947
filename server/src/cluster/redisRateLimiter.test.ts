// The shared limiter on a real Redis (TEST_REDIS_URL), under a key prefix of its own per run: two limiters (two
// nodes) share their counts, `take` stays atomic across them, and the login budgets bind across nodes.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { BUDGETS, accountIpSubject, clearLoginLockouts, takeBudgets } from '../auth/throttle';
import { createRedisRateLimiter } from './redisRateLimiter';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)(
  redisUrl ? 'Redis rate limiter' : 'Redis rate limiter — SKIPPED: TEST_REDIS_URL is not set',
  () => {
    const prefix = `optionpilot-test:${randomBytes(6).toString('hex')}:`;
    let nodeA: Redis;
    let nodeB: Redis;
    beforeAll(() => {
      nodeA = new Redis(redisUrl as string);
      nodeB = new Redis(redisUrl as string);
    });
    afterAll(async () => {
      const keys = await nodeA.keys(`${prefix}*`);
      if (keys.length > 0) await nodeA.del(...keys);
      await Promise.all([nodeA.quit(), nodeB.quit()]);
    });

    it('counts in a window that starts at the first hit, shared between nodes', async () => {
      const a = createRedisRateLimiter(nodeA, prefix);
      const b = createRedisRateLimiter(nodeB, prefix);
      expect(await a.peek('w')).toEqual({ count: 0, resetInMs: 0 });
      const first = await a.hit('w', 60_000);
      expect(first.count).toBe(1);
      expect(first.resetInMs).toBeGreaterThan(50_000);
      expect((await b.hit('w', 60_000)).count).toBe(2);
      expect((await a.peek('w')).count).toBe(2);
      await b.reset('w');
      expect(await a.peek('w')).toEqual({ count: 0, resetInMs: 0 });
    });

    it('forgets a key when its window has passed', async () => {
      const a = createRedisRateLimiter(nodeA, prefix);
      await a.hit('short', 50);
      await new Promise((done) => setTimeout(done, 120));
      expect(await a.peek('short')).toEqual({ count: 0, resetInMs: 0 });
    });

    it('takes at most `limit` attempts from two nodes started at once', async () => {
      const a = createRedisRateLimiter(nodeA, prefix);
      const b = createRedisRateLimiter(nodeB, prefix);
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).take('k', 10, 60_000)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
      expect((await a.peek('k')).count).toBe(10);
      await b.refund('k');
      expect((await a.take('k', 10, 60_000)).allowed).toBe(true);
      expect((await a.take('k', 10, 60_000)).allowed).toBe(false);
    });

    it('forgets keys by a prefix holding glob characters, and only those', async () => {
      const a = createRedisRateLimiter(nodeA, prefix);
      await a.hit('p*[x]:a', 60_000);
      await a.hit('p*[x]:b', 60_000);
      await a.hit('p-other:a', 60_000);
      await a.resetPrefix('p*[x]:');
      expect([(await a.peek('p*[x]:a')).count, (await a.peek('p*[x]:b')).count]).toEqual([0, 0]);
      expect((await a.peek('p-other:a')).count).toBe(1);
    });

    it('refuses a login budget used up on the other node, until the lockouts are cleared', async () => {
      const a = createRedisRateLimiter(nodeA, prefix);
      const b = createRedisRateLimiter(nodeB, prefix);
      const subject = accountIpSubject('asha@example.com', '203.0.113.9');
      for (let i = 0; i < BUDGETS.loginPerAccountIp.limit; i += 1) {
        await takeBudgets(i % 2 === 0 ? a : b, [[BUDGETS.loginPerAccountIp, subject]]);
      }
      await expect(takeBudgets(b, [[BUDGETS.loginPerAccountIp, subject]])).rejects.toBeInstanceOf(AppError);
      await clearLoginLockouts(a, 'asha@example.com');
      await expect(takeBudgets(b, [[BUDGETS.loginPerAccountIp, subject]])).resolves.toBeDefined();
    });
  },
);
