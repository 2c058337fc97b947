// The RateLimiter over Redis, for several nodes: a budget counted on one node binds on every other (login, sign-up
// and reset limits would otherwise multiply by the number of nodes). Each step is one Lua script, so `take` stays
// atomic across nodes as it is within one process; windows expire in Redis itself (PEXPIRE), as fixed windows
// starting at the first attempt, like the in-memory limiter.
import type { Redis } from 'ioredis';
import type { RateLimiter, RateLimitState } from '../auth/rateLimiter';

// KEYS[1] the key, ARGV[1] window ms → { count, ttl ms }
const HIT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { c, redis.call('PTTL', KEYS[1]) }`;

// KEYS[1] the key, ARGV[1] limit, ARGV[2] window ms → { allowed 0|1, count, ttl ms }
const TAKE = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c >= tonumber(ARGV[1]) then return { 0, c, redis.call('PTTL', KEYS[1]) } end
c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return { 1, c, redis.call('PTTL', KEYS[1]) }`;

const REFUND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('DECR', KEYS[1]) <= 0 then redis.call('DEL', KEYS[1]) end
return 1`;

/** PTTL answers -2 (no key) or -1 (no expiry); the limiter's callers expect 0 then. */
const ttl = (ms: number) => Math.max(0, ms);

/** Escapes SCAN's glob characters: an e-mail in a prefix may contain `*`, `?` or `[`. */
const globEscape = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

/**
 * A limiter whose counts live in Redis under `prefix` (one install's nodes share a prefix; tests use their own).
 * The client is the caller's: it is not closed here.
 */
export function createRedisRateLimiter(redis: Redis, prefix: string): RateLimiter {
  const k = (key: string) => `${prefix}limit:${key}`;
  const run = async (script: string, key: string, ...args: (string | number)[]) =>
    (await redis.eval(script, 1, k(key), ...args)) as number[];
  return {
    async peek(key): Promise<RateLimitState> {
      const [count, remaining] = await Promise.all([redis.get(k(key)), redis.pttl(k(key))]);
      const n = Number(count ?? 0);
      return n > 0 ? { count: n, resetInMs: ttl(Number(remaining)) } : { count: 0, resetInMs: 0 };
    },
    async hit(key, windowMs) {
      const [count = 0, remaining = 0] = await run(HIT, key, windowMs);
      return { count, resetInMs: ttl(remaining) };
    },
    async take(key, limit, windowMs) {
      const [allowed = 0, count = 0, remaining = 0] = await run(TAKE, key, limit, windowMs);
      return { allowed: allowed === 1, count, resetInMs: ttl(remaining) };
    },
    async refund(key) {
      await run(REFUND, key);
    },
    async reset(key) {
      await redis.del(k(key));
    },
    async resetPrefix(keyPrefix) {
      const match = `${globEscape(k(keyPrefix))}*`;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 200);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    },
  };
}
