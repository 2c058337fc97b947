/**
 * India Standard Time helpers. IST is a fixed UTC+05:30 with no daylight saving, so conversions are plain
 * arithmetic on epoch ms and never depend on the process time zone (`TZ`) or on Intl time-zone data.
 */

/** IST's offset from UTC in milliseconds (+05:30). */
export const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Day of week as JavaScript numbers it: 0 = Sunday … 6 = Saturday. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** The IST wall-clock fields of an instant. */
export interface IstParts {
  readonly year: number;
  /** 1–12 */
  readonly month: number;
  /** 1–31 */
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  readonly weekday: Weekday;
  /** minutes since IST midnight, 0–1439 */
  readonly minuteOfDay: number;
}

/** Splits an epoch-ms instant into IST wall-clock fields. */
export function toIstParts(time: number): IstParts {
  // Shifting by the offset and reading the UTC fields gives the IST wall clock.
  const d = new Date(time + IST_OFFSET_MS);
  const hour = d.getUTCHours();
  const minute = d.getUTCMinutes();
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour,
    minute,
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    weekday: d.getUTCDay() as Weekday,
    minuteOfDay: hour * 60 + minute,
  };
}

/** The IST calendar date of an instant as `YYYY-MM-DD`. */
export function istDate(time: number): string {
  return new Date(time + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The epoch ms of IST midnight starting the IST date of `time`. */
export function istMidnightOf(time: number): number {
  const shifted = time + IST_OFFSET_MS;
  return shifted - mod(shifted, DAY_MS) - IST_OFFSET_MS;
}

/** Milliseconds elapsed since IST midnight of the instant's IST date (0 ≤ result < 1 day). */
export function msSinceIstMidnight(time: number): number {
  return mod(time + IST_OFFSET_MS, DAY_MS);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD` into its numeric parts, throwing on anything that is not a real calendar date. */
export function parseDate(date: string): { year: number; month: number; day: number } {
  const match = DATE_RE.exec(date);
  if (!match) throw new RangeError(`"${date}" is not a YYYY-MM-DD date`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`"${date}" is not a real calendar date`);
  }
  return { year, month, day };
}

/** True when `date` is a real `YYYY-MM-DD` calendar date. */
export function isValidDate(date: string): boolean {
  try {
    parseDate(date);
    return true;
  } catch {
    return false;
  }
}

/** The epoch ms of IST midnight starting the given `YYYY-MM-DD` date. */
export function istMidnight(date: string): number {
  const { year, month, day } = parseDate(date);
  return Date.UTC(year, month - 1, day) - IST_OFFSET_MS;
}

/** The epoch ms of an IST wall-clock time (`HH:MM` or minutes since midnight) on a `YYYY-MM-DD` date. */
export function istDateTime(date: string, time: string | number): number {
  const minutes = typeof time === 'number' ? time : parseHhMm(time);
  return istMidnight(date) + minutes * MINUTE_MS;
}

const HHMM_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses an `HH:MM` 24-hour time into minutes since midnight. */
export function parseHhMm(time: string): number {
  const match = HHMM_RE.exec(time);
  if (!match) throw new RangeError(`"${time}" is not an HH:MM time`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Formats minutes since midnight as `HH:MM`. */
export function formatHhMm(minutes: number): string {
  return `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

/** The date `days` calendar days after (negative: before) a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  const { year, month, day } = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The day of week of a `YYYY-MM-DD` date. */
export function weekdayOf(date: string): Weekday {
  const { year, month, day } = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay() as Weekday;
}

/** Formats IST wall-clock fields of an instant as `YYYY-MM-DD HH:MM:SS IST`, for logs and error messages. */
export function formatIst(time: number): string {
  const p = toIstParts(time);
  return `${istDate(time)} ${pad2(p.hour)}:${pad2(p.minute)}:${pad2(p.second)} IST`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
