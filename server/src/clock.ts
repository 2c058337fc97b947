// Time is injected so tests can move it (reset-token expiry, rate-limit windows, session expiry) without sleeping.

/** Source of the current time in epoch milliseconds. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for tests. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

/** Creates a ManualClock starting at `startMs`. */
export function createManualClock(startMs = Date.UTC(2026, 0, 5, 4, 0, 0)): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}
