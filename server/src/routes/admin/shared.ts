// What every admin resource router gets: the deps, the secret box for broker credentials, the event-loop lag
// monitor, the broker module lookup and the payment gateway; plus the parsers of path ids and query strings.
import type { Router } from '@koa/router';
import { z } from 'zod';
import type { SecretBox } from '../../crypto';
import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { authOf, type AppState, type RouteContext } from '../../middleware/context';
import type { PaymentGateway } from '../../payments/gateway';
import type { BrokerLookup } from '../../services/admin/brokers';
import type { createLagMonitor } from '../../services/admin/systemHealth';

export interface AdminEnv {
  deps: Deps;
  box: SecretBox;
  lag: ReturnType<typeof createLagMonitor>;
  brokers: BrokerLookup;
  paymentGateway: PaymentGateway;
}

export type AdminRouter = Router<AppState>;

const idSchema = z.coerce
  .number({ error: 'id must be a number' })
  .int('id must be a whole number')
  .positive('id must be positive')
  .max(2_147_483_647, 'id is too large');

/** The numeric `:id` of the path, or 400. */
export function pathId(ctx: RouteContext, name = 'id'): number {
  const parsed = idSchema.safeParse(ctx.params[name]);
  if (!parsed.success) throw validationError(parsed.error, name);
  return parsed.data;
}

/** The query string parsed by `schema` (last value of a repeated key), or 400 naming the parameter. */
export function queryOf<S extends z.ZodType>(ctx: RouteContext, schema: S): z.output<S> {
  const flat = Object.fromEntries(
    Object.entries(ctx.query).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]),
  );
  const parsed = schema.safeParse(flat);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}

/** The signed-in admin's id (the routes sit behind requireAuth + can('admin:access')). */
export function adminIdOf(ctx: RouteContext): number {
  return authOf(ctx).user.id;
}
