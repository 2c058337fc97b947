// Display formatting for money and time. Money travels as integer paise (decisions.md) and is shown in rupees with
// Indian digit grouping; times travel as UTC and are shown in India Standard Time whatever the browser's zone is.
import { formatPaise } from '@optionpilot/engine/money';

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

const IST = 'Asia/Kolkata';

// Built from parts so the output does not depend on the ICU version's choice of separators ("," vs " at ").
const istParts = new Intl.DateTimeFormat('en-IN', {
  timeZone: IST,
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** "—" stands in for a missing or unparseable value so tables never show "NaN" or "Invalid Date". */
export const EMPTY_VALUE = '—';

/** Formats integer paise as rupees, e.g. 589882 → "₹5,898.82", 1234567800 → "₹1,23,45,678.00". */
export function formatInr(paise: number): string {
  if (!Number.isFinite(paise)) return EMPTY_VALUE;
  // A fraction of a paisa (a sum from the wire) is rounded off rather than refused: the screen must show something.
  return formatPaise(Math.round(paise));
}

/** Formats a rupee amount (the few wire fields named in rupees), e.g. 4999 → "₹4,999.00". */
export function formatInrRupees(rupees: number): string {
  if (!Number.isFinite(rupees)) return EMPTY_VALUE;
  return inr.format(rupees);
}

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function partsOf(date: Date): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of istParts.formatToParts(date)) parts[part.type] = part.value;
  return parts;
}

/** Formats an instant (ISO string or epoch ms) in IST, e.g. "23 Nov 2025, 14:30 IST". */
export function formatIstDateTime(value: string | number | Date): string {
  const date = toDate(value);
  if (!date) return EMPTY_VALUE;
  const p = partsOf(date);
  return `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute} IST`;
}

/** Formats the IST calendar day of an instant, e.g. "23 Nov 2025". */
export function formatIstDate(value: string | number | Date): string {
  const date = toDate(value);
  if (!date) return EMPTY_VALUE;
  const p = partsOf(date);
  return `${p.day} ${p.month} ${p.year}`;
}

/** Formats the time of day of an instant in IST with seconds, e.g. "14:30:05 IST". */
export function formatIstTime(value: string | number | Date): string {
  const date = toDate(value);
  if (!date) return EMPTY_VALUE;
  const p = partsOf(date);
  return `${p.hour}:${p.minute}:${p.second} IST`;
}

const calendarDay = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'UTC',
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
});

/** Formats a calendar date (`YYYY-MM-DD`, an IST date as the server sends it), e.g. "Fri, 01 Jan 2027". */
export function formatCalendarDate(date: string): string {
  const parsed = toDate(`${date}T00:00:00Z`);
  if (!parsed || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return EMPTY_VALUE;
  const p: Record<string, string> = {};
  for (const part of calendarDay.formatToParts(parsed)) p[part.type] = part.value;
  return `${p.weekday}, ${p.day} ${p.month} ${p.year}`;
}
