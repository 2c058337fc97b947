// Admin contract: the shared page, sort and period filters of every admin list. Money: `*Paise` fields are integer paise;
// a plain `amount` is rupees (spec). Times are ISO-8601 UTC strings.
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------- lists and filters

export const PAGE_SIZE_MAX = 100;

/** Every list answer: one page of items, newest first, and how many match the filters in all. */
export interface PageDto<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** `today` and `month`/`quarter` are IST calendar periods; `week` is the last 10080 minutes (spec §9). */
export const PERIODS = ['all', 'today', 'week', 'month', 'quarter'] as const;
export type Period = (typeof PERIODS)[number];

const isoDay = (field: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date like 2026-11-24`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), `${field} must be a real date`);

/** page/pageSize plus an optional period or an IST day range (`from`/`to` inclusive). */
export const listQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(100_000, 'page is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, `pageSize must be between 1 and ${PAGE_SIZE_MAX}`)
    .max(PAGE_SIZE_MAX, `pageSize must be between 1 and ${PAGE_SIZE_MAX}`)
    .default(25),
  period: z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(', ')}` }).default('all'),
  from: isoDay('from').optional(),
  to: isoDay('to').optional(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** Who a row belongs to, as admin tables show it. */
export interface UserRefDto {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

/** An ISO-8601 date-time with offset, as `field`. */
export const isoInstant = (field: string) =>
  z.iso.datetime({ offset: true, error: `${field} must be an ISO-8601 date-time` });
