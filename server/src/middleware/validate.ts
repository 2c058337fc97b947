// Validation at the edge: handlers receive only the parsed, typed input; a zod failure is a 400 naming the field.
import type { z } from 'zod';
import { validationError } from '../errors';
import type { RouteContext, RouteMiddleware } from './context';

/** Parses the JSON body with `schema` and calls `handler` with the result. */
export function withBody<S extends z.ZodType>(
  schema: S,
  handler: (ctx: RouteContext, input: z.output<S>) => Promise<void>,
): RouteMiddleware {
  return async (ctx) => {
    const parsed = schema.safeParse(ctx.request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    await handler(ctx, parsed.data);
  };
}
