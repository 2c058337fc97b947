// Validation at the edge: handlers receive only the parsed, typed input; a zod failure is a 400 naming the field.
import type { z } from 'zod';
import { validationError } from '../errors';
import type { RouteContext, RouteMiddleware } from './context';

/** A body-validating route middleware; it carries its schema so tests can fuzz every route from its own schema. */
export type BodyValidator<S extends z.ZodType = z.ZodType> = RouteMiddleware & { readonly bodySchema: S };

/** Parses the JSON body with `schema` and calls `handler` with the result. */
export function withBody<S extends z.ZodType>(
  schema: S,
  handler: (ctx: RouteContext, input: z.output<S>) => Promise<void>,
): BodyValidator<S> {
  const middleware: RouteMiddleware = async (ctx) => {
    const parsed = schema.safeParse(ctx.request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    await handler(ctx, parsed.data);
  };
  return Object.assign(middleware, { bodySchema: schema });
}

/** The body schema of a route's middleware chain, when one of its middlewares came from `withBody`. */
export function bodySchemaOf(stack: readonly RouteMiddleware[]): z.ZodType | undefined {
  for (const middleware of stack) {
    if ('bodySchema' in middleware) return (middleware as BodyValidator).bodySchema;
  }
  return undefined;
}
