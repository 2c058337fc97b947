import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { accountRateWindows, LimiterDisposedError, RateLimiter } from './rateLimiter';
import type { RateWindow } from './rateLimiter';
import { VirtualTime } from './virtualTime';

/** Largest number of grants inside any half-open window [g, g + windowMs). */
function maxInAnyWindow(grants: readonly number[], windowMs: number): number {
  let max = 0;
  for (const start of grants)
    max = Math.max(max, grants.filter((g) => g >= start && g < start + windowMs).length);
  return max;
}

describe('accountRateWindows', () => {
  it('caps every account at SEBI’s 10 orders/s whatever the broker or the configuration allows', () => {
    expect(accountRateWindows({ perSecond: 25 })[0]).toEqual({ limit: 10, windowMs: 1_000 });
    expect(accountRateWindows({ perSecond: 25 }, 50)[0]).toEqual({ limit: 10, windowMs: 1_000 });
  });

  it('honours a lower configured cap and the broker’s own lower limits', () => {
    expect(accountRateWindows({ perSecond: 10 }, 4)[0]?.limit).toBe(4);
    expect(accountRateWindows({ perSecond: 3, perMinute: 200, perDay: 5_000 })).toEqual([
      { limit: 3, windowMs: 1_000 },
      { limit: 200, windowMs: 60_000 },
      { limit: 5_000, windowMs: 86_400_000 },
    ]);
  });
});

describe('RateLimiter', () => {
  it('never grants more than N in any 1 s window, queues instead of dropping, and keeps FIFO order (virtual time)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 60 }),
        async (limit, offsets) => {
          const time = new VirtualTime(1_000_000);
          const limiter = new RateLimiter([{ limit, windowMs: 1_000 }], time.scheduler);
          const arrivals = [...offsets].sort((a, b) => a - b);
          const grants: { index: number; at: number }[] = [];
          let clock = 0;
          for (const [index, offset] of arrivals.entries()) {
            await time.advance(offset - clock);
            clock = offset;
            void limiter.acquire().then(() => grants.push({ index, at: time.now() }));
          }
          await time.until(() => grants.length === arrivals.length, 60_000, 50);
          const times = grants.map((g) => g.at);
          expect(maxInAnyWindow(times, 1_000)).toBeLessThanOrEqual(limit);
          expect(grants.map((g) => g.index)).toEqual(arrivals.map((_, i) => i));
          for (const g of grants)
            expect(g.at).toBeGreaterThanOrEqual(1_000_000 + (arrivals[g.index] as number));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('grants a burst of 10 at once and the 11th exactly when the first leaves the window', async () => {
    const time = new VirtualTime(0);
    const limiter = new RateLimiter([{ limit: 10, windowMs: 1_000 }], time.scheduler);
    const grants: number[] = [];
    for (let i = 0; i < 11; i += 1) void limiter.acquire().then(() => grants.push(time.now()));
    await time.advance(0);
    expect(grants).toEqual(Array.from({ length: 10 }, () => 0));
    expect(limiter.pending).toBe(1);
    await time.advance(999);
    expect(grants).toHaveLength(10);
    await time.advance(1);
    expect(grants[10]).toBe(1_000);
  });

  it('applies every window: the per-minute limit holds after the per-second one frees up', async () => {
    const time = new VirtualTime(0);
    const limiter = new RateLimiter(accountRateWindows({ perSecond: 10, perMinute: 12 }), time.scheduler);
    const grants: number[] = [];
    for (let i = 0; i < 13; i += 1) void limiter.acquire().then(() => grants.push(time.now()));
    await time.advance(61_000);
    expect(grants.slice(10, 12)).toEqual([1_000, 1_000]);
    expect(grants[12]).toBe(60_000);
  });

  it('fails waiters when disposed', async () => {
    const time = new VirtualTime(0);
    const limiter = new RateLimiter([{ limit: 1, windowMs: 1_000 }], time.scheduler);
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(false);
    const waiting = limiter.acquire();
    limiter.dispose();
    await expect(waiting).rejects.toBeInstanceOf(LimiterDisposedError);
  });
});

/**
 * The limiter's rule computed naively over the whole grant log: the earliest instant ≥ `from` at which every
 * window holds fewer than its limit.
 */
function naiveGrantTime(grants: readonly number[], windows: readonly RateWindow[], from: number): number {
  let at = from;
  for (let changed = true; changed;) {
    changed = false;
    for (const { limit, windowMs } of windows) {
      const inside = grants.filter((g) => g > at - windowMs && g <= at);
      if (inside.length >= limit) {
        at = (inside[inside.length - limit] as number) + windowMs;
        changed = true;
      }
    }
  }
  return at;
}

describe('RateLimiter against the naive sliding log', () => {
  it('grants at exactly the instants a full scan of every window allows, over long runs and several windows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 150 }),
        async (perSecond, perTenSeconds, gaps) => {
          const windows: RateWindow[] = [
            { limit: perSecond, windowMs: 1_000 },
            { limit: perTenSeconds, windowMs: 10_000 },
          ];
          const time = new VirtualTime(0);
          const limiter = new RateLimiter(windows, time.scheduler);
          const granted: number[] = [];
          let arrival = 0;
          const arrivals: number[] = [];
          for (const gap of gaps) {
            await time.advance(gap);
            arrival += gap;
            arrivals.push(arrival);
            // Half the callers try the synchronous path first, as the router does.
            if (gap % 2 === 0 && limiter.tryAcquire()) granted.push(time.now());
            else void limiter.acquire().then(() => granted.push(time.now()));
          }
          await time.until(() => granted.length === gaps.length, 10_000_000, 1_000);
          const expected: number[] = [];
          for (const at of arrivals)
            expected.push(naiveGrantTime(expected, windows, Math.max(at, expected.at(-1) ?? 0)));
          expect(granted).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });
});
