import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';
import type { SessionCalendar } from '../core/types';

// Small calendars for tests of candles and the strategy, so they do not depend on holiday data.

const MINUTE_MS = 60_000;
const IST_OFFSET_MS = 330 * MINUTE_MS;
const DAY_MS = 24 * 60 * MINUTE_MS;
const OPEN_MS = (9 * 60 + 15) * MINUTE_MS;
const CLOSE_MS = (15 * 60 + 30) * MINUTE_MS;
const ENTRY_END_MS = 15 * 60 * MINUTE_MS;

const mod = (a: number, b: number): number => ((a % b) + b) % b;

/** Epoch ms of an IST wall-clock time, e.g. `ist('2026-01-05', '09:15')` or `ist('2026-01-05', '09:15:30')`. */
export function ist(date: string, time: string): number {
  return Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}+05:30`);
}

/**
 * The IST exchange session without holiday data: weekdays 09:15:00 ≤ t < 15:30:00 IST, entry window
 * 09:15 < t ≤ 15:00; `holidays` (YYYY-MM-DD) are closed.
 */
export function istTestCalendar(holidays: readonly string[] = []): SessionCalendar {
  const closed = new Set(holidays);
  const tradingDate = (time: number): string => new Date(time + IST_OFFSET_MS).toISOString().slice(0, 10);
  const isTradingDay = (time: number): boolean => {
    const weekday = new Date(time + IST_OFFSET_MS).getUTCDay();
    return weekday !== 0 && weekday !== 6 && !closed.has(tradingDate(time));
  };
  const msOfDay = (time: number): number => mod(time + IST_OFFSET_MS, DAY_MS);
  return {
    isInSession: (time) => {
      const ms = msOfDay(time);
      return ms >= OPEN_MS && ms < CLOSE_MS && isTradingDay(time);
    },
    sessionOpen: (time) => time - msOfDay(time) + OPEN_MS,
    tradingDate,
    isInEntryWindow: (time) => {
      const ms = msOfDay(time);
      return ms > OPEN_MS && ms <= ENTRY_END_MS && isTradingDay(time);
    },
  };
}

/** Options of {@link frameCalendar}; all in ms from the start of each "day". */
export interface FrameCalendarOptions {
  /** length of a day (default 1 hour, so marble tests stay short) */
  readonly dayMs?: number;
  readonly openMs?: number;
  readonly closeMs?: number;
  /** entry window is `entryFromMs < t ≤ entryToMs` within the day */
  readonly entryFromMs?: number;
  readonly entryToMs?: number;
}

/**
 * A calendar on small virtual-time numbers for marble tests: days of `dayMs` starting at 0, each with a session
 * `[openMs, closeMs)`. Defaults: 1-hour days, always in session, entry window always open.
 */
export function frameCalendar(options: FrameCalendarOptions = {}): SessionCalendar {
  const dayMs = options.dayMs ?? 60 * MINUTE_MS;
  const openMs = options.openMs ?? 0;
  const closeMs = options.closeMs ?? dayMs;
  const entryFromMs = options.entryFromMs ?? -1;
  const entryToMs = options.entryToMs ?? dayMs;
  const dayStart = (time: number): number => time - mod(time, dayMs);
  return {
    isInSession: (time) => mod(time, dayMs) >= openMs && mod(time, dayMs) < closeMs,
    sessionOpen: (time) => dayStart(time) + openMs,
    tradingDate: (time) => `day-${Math.floor(time / dayMs)}`,
    isInEntryWindow: (time) => {
      // A close exactly at the day's end belongs to the day that just ended.
      const ms = time - dayStart(time - 1);
      return ms > entryFromMs && ms <= entryToMs;
    },
  };
}

/** A scheduler whose clock reads `base` + the inner scheduler's clock, so marble frames can stand for real dates. */
export function offsetScheduler(inner: SchedulerLike, base: number): SchedulerLike {
  return new OffsetScheduler(inner, base);
}

class OffsetScheduler implements SchedulerLike {
  constructor(
    private readonly inner: SchedulerLike,
    private readonly base: number,
  ) {}

  now(): number {
    return this.base + this.inner.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    return this.inner.schedule(work, delay, state);
  }
}
