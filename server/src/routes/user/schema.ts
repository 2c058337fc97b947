// Requests of /api/user/*: the shared contract schemas (the web forms validate with the same ones) plus the trade
// list's query.
import { z } from 'zod';
import { validationError } from '../../errors';

export {
  botSwitchSchema,
  brokerCredentialsSchema,
  notificationSettingsSchema,
  tradingSettingsSchema,
  userSettingsSchema,
} from '../../contract';

export const TRADES_DEFAULT_LIMIT = 100;
export const TRADES_MAX_LIMIT = 500;

/** `GET /api/user/trades?limit=&status=`; status is case-insensitive (the spec's history compares with CLOSED). */
export const tradesQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number between 1 and ${TRADES_MAX_LIMIT}` })
    .int(`limit must be a whole number between 1 and ${TRADES_MAX_LIMIT}`)
    .min(1, `limit must be a whole number between 1 and ${TRADES_MAX_LIMIT}`)
    .max(TRADES_MAX_LIMIT, `limit must be a whole number between 1 and ${TRADES_MAX_LIMIT}`)
    .default(TRADES_DEFAULT_LIMIT),
  status: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['open', 'closed', 'cancelled'], { error: 'status must be open, closed or cancelled' }))
    .optional(),
});

/** Parses a query string object (repeated keys: the last value wins); a failure is a 400 naming the parameter. */
export function parseQuery<S extends z.ZodType>(
  schema: S,
  query: Record<string, string | string[] | undefined>,
): z.output<S> {
  const flat = Object.fromEntries(
    Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]),
  );
  const parsed = schema.safeParse(flat);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}
