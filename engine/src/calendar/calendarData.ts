import { z } from 'zod';
import { istDate, isValidDate, parseHhMm } from './ist';

/**
 * The exchange calendar data file (`engine/data/nse-calendar.json`): per year the holidays, special sessions and
 * session times. Operators update the file when the exchange publishes a new year's circular; the program
 * validates it at load and warns (never fails) when the current year is missing.
 */

const dateSchema = z
  .string()
  .refine(isValidDate, { message: 'must be a real calendar date written YYYY-MM-DD' });

/** parseHhMm without throwing: zod v4 runs object refinements even when a field already failed. */
function minutesOrNaN(time: string): number {
  try {
    return parseHhMm(time);
  } catch {
    return Number.NaN;
  }
}

const hhMmSchema = z
  .string()
  .refine((v) => !Number.isNaN(minutesOrNaN(v)), { message: 'must be a 24-hour time written HH:MM' });

const sessionTimesSchema = z
  .object({ open: hhMmSchema, close: hhMmSchema })
  .refine((s) => !(minutesOrNaN(s.open) >= minutesOrNaN(s.close)), {
    message: 'open must be before close',
    path: ['open'],
  });

const holidaySchema = z.object({ date: dateSchema, name: z.string().min(1).optional() });

/**
 * A special session (e.g. Muhurat trading). The exchange announces its times by circular, often late, so a session
 * whose times are not yet known is stored as `times: "pending"` rather than with invented times.
 */
const specialSessionSchema = z.discriminatedUnion('times', [
  z.object({
    date: dateSchema,
    name: z.string().min(1),
    times: z.literal('announced'),
    open: hhMmSchema,
    close: hhMmSchema,
    source: z.string().optional(),
  }),
  z.object({
    date: dateSchema,
    name: z.string().min(1),
    times: z.literal('pending'),
    note: z.string().optional(),
  }),
]);

const yearSchema = z.object({
  /** where the list comes from (circular number, URL) */
  source: z.string().optional(),
  /** overrides the file-wide regular session for this year */
  regularSession: sessionTimesSchema.optional(),
  holidays: z.array(holidaySchema),
  specialSessions: z.array(specialSessionSchema).default([]),
});

export const calendarDataSchema = z
  .object({
    exchange: z.string().min(1),
    /** the engine's IST arithmetic assumes UTC+05:30; any other zone is a data error */
    timezone: z.literal('Asia/Kolkata'),
    regularSession: sessionTimesSchema,
    years: z.record(z.string().regex(/^\d{4}$/, 'year keys must be four digits'), yearSchema),
  })
  .superRefine((data, ctx) => {
    for (const [year, entry] of Object.entries(data.years)) {
      const seen = new Set<string>();
      entry.holidays.forEach((h, i) => {
        if (!h.date.startsWith(`${year}-`)) {
          ctx.addIssue({
            code: 'custom',
            path: ['years', year, 'holidays', i, 'date'],
            message: `${h.date} is not in ${year}`,
          });
        }
        if (seen.has(h.date)) {
          ctx.addIssue({
            code: 'custom',
            path: ['years', year, 'holidays', i, 'date'],
            message: `${h.date} is listed twice`,
          });
        }
        seen.add(h.date);
      });
      entry.specialSessions.forEach((s, i) => {
        if (!s.date.startsWith(`${year}-`)) {
          ctx.addIssue({
            code: 'custom',
            path: ['years', year, 'specialSessions', i, 'date'],
            message: `${s.date} is not in ${year}`,
          });
        }
        if (s.times === 'announced' && minutesOrNaN(s.open) >= minutesOrNaN(s.close)) {
          ctx.addIssue({
            code: 'custom',
            path: ['years', year, 'specialSessions', i, 'open'],
            message: 'open must be before close',
          });
        }
      });
    }
  });

/** The validated calendar data. */
export type CalendarData = z.infer<typeof calendarDataSchema>;
export type CalendarYear = CalendarData['years'][string];
export type SpecialSession = CalendarYear['specialSessions'][number];

/** Thrown when the calendar file is malformed; the message lists every problem with its JSON path. */
export class CalendarDataError extends Error {
  constructor(readonly issues: readonly string[]) {
    super(`invalid calendar data:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'CalendarDataError';
  }
}

/** Validates raw calendar JSON, throwing a {@link CalendarDataError} that names every bad field. */
export function parseCalendarData(json: unknown): CalendarData {
  const result = calendarDataSchema.safeParse(json);
  if (!result.success) {
    throw new CalendarDataError(
      result.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`),
    );
  }
  return result.data;
}

/** Problems an operator should fix that do not stop the program (a missing year, pending special-session times). */
export function calendarWarnings(data: CalendarData, now: number): string[] {
  const warnings: string[] = [];
  const today = istDate(now);
  const year = today.slice(0, 4);
  if (!data.years[year]) {
    warnings.push(
      `calendar has no entry for ${year}: every weekday is treated as a trading day and holidays are not ` +
        `skipped until the ${year} holiday list is added to the calendar file`,
    );
  }
  const nextYear = String(Number(year) + 1);
  if (today.slice(5, 7) === '12' && !data.years[nextYear]) {
    warnings.push(`calendar has no entry for ${nextYear} yet; add it before 1 January`);
  }
  for (const entry of Object.values(data.years)) {
    for (const s of entry.specialSessions) {
      if (s.times === 'pending' && s.date >= today) {
        warnings.push(
          `special session "${s.name}" on ${s.date} has no announced times; it is not treated as in session ` +
            `until open/close are added`,
        );
      }
    }
  }
  return warnings;
}

/** A validated calendar plus the warnings it raises at `now`. */
export interface LoadedCalendarData {
  readonly data: CalendarData;
  readonly warnings: readonly string[];
}

/** Validates calendar JSON and reports warnings for `now`; throws only for malformed data, never for a missing year. */
export function loadCalendarData(json: unknown, options: { now: number }): LoadedCalendarData {
  const data = parseCalendarData(json);
  return { data, warnings: calendarWarnings(data, options.now) };
}
