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
  /** Forgets `key` (e.g. after a successful login). */
  reset(key: string): Promise<void>;
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

  return {
    async peek(key) {
      const now = clock.now();
      const w = live(key, now);
      return w ? { count: w.count, resetInMs: w.resetAt - now } : { count: 0, resetInMs: 0 };
    },
    async hit(key, windowMs) {
      const now = clock.now();
      if (windows.size > SWEEP_THRESHOLD) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
      }
      const w = live(key, now) ?? { count: 0, resetAt: now + windowMs };
      w.count += 1;
      windows.set(key, w);
      return { count: w.count, resetInMs: w.resetAt - now };
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
