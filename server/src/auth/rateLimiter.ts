// Counting attempts per key in fixed windows, behind an interface so a Redis-backed limiter can replace the
// in-memory one when several server processes share the load (the counts must then be shared too).
import type { Clock } from '../clock';

export interface RateLimitState {
  /** attempts counted in the current window */
  count: number;
  /** ms until the window resets (0 when nothing is counted) */
  resetInMs: number;
}

export interface RateLimiter {
  /** Reads the state of `key` without counting. */
  peek(key: string): Promise<RateLimitState>;
  /** Counts one attempt for `key`; the window of `windowMs` starts at the first attempt. */
  hit(key: string, windowMs: number): Promise<RateLimitState>;
  /**
   * Counts one attempt for `key` only while fewer than `limit` are counted in its window, as one atomic step:
   * concurrent callers can never together get more than `limit` attempts through (a check now and a count after
   * slow work would let parallel requests all pass the check).
   */
  take(key: string, limit: number, windowMs: number): Promise<TakeResult>;
  /** Gives back one attempt counted in the current window (the attempt turned out to be legitimate). */
  refund(key: string): Promise<void>;
  /** Forgets `key` (e.g. after a successful login). */
  reset(key: string): Promise<void>;
  /** Forgets every key starting with `prefix` (e.g. an account's lockouts from every address). */
  resetPrefix(prefix: string): Promise<void>;
}

export interface TakeResult extends RateLimitState {
  /** false when the budget was already used up; nothing was counted then */
  allowed: boolean;
}

interface Window {
  count: number;
  resetAt: number;
}

// Past this many keys, expired windows are swept on the next hit so an address-spraying client cannot grow
// the map without bound.
const SWEEP_THRESHOLD = 10_000;

/** Single-process limiter; state lives in the returned instance. */
export function createMemoryRateLimiter(clock: Clock): RateLimiter {
  const windows = new Map<string, Window>();

  const live = (key: string, now: number): Window | undefined => {
    const w = windows.get(key);
    if (w && w.resetAt <= now) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };

  const count = (key: string, windowMs: number, now: number): RateLimitState => {
    if (windows.size > SWEEP_THRESHOLD) {
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    }
    const w = live(key, now) ?? { count: 0, resetAt: now + windowMs };
    w.count += 1;
    windows.set(key, w);
    return { count: w.count, resetInMs: w.resetAt - now };
  };

  return {
    async peek(key) {
      const now = clock.now();
      const w = live(key, now);
      return w ? { count: w.count, resetInMs: w.resetAt - now } : { count: 0, resetInMs: 0 };
    },
    async hit(key, windowMs) {
      return count(key, windowMs, clock.now());
    },
    async take(key, limit, windowMs) {
      // Read and write with no await between them: within one process this is atomic.
      const now = clock.now();
      const w = live(key, now);
      if (w && w.count >= limit) return { allowed: false, count: w.count, resetInMs: w.resetAt - now };
      return { allowed: true, ...count(key, windowMs, now) };
    },
    async refund(key) {
      const w = live(key, clock.now());
      if (!w) return;
      w.count -= 1;
      if (w.count <= 0) windows.delete(key);
    },
    async reset(key) {
      windows.delete(key);
    },
    async resetPrefix(prefix) {
      for (const key of windows.keys()) if (key.startsWith(prefix)) windows.delete(key);
    },
  };
}
