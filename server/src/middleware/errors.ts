// The one error renderer: catalogue errors become `{ error, message, field? }` with their status; errors raised by
// Koa's body parser (malformed JSON, too large, wrong charset) are mapped by their status and type; anything else
// is a 500 whose details go only to the log, next to the request id that the response carries.
import type { Middleware } from 'koa';
import type { ErrorResponse } from '../contract';
import { AppError, ERROR_CATALOGUE } from '../errors';
import type { Logger } from '../logger';
import type { AppState } from './context';

interface HttpLikeError {
  status: number;
  expose?: boolean;
  type?: string;
}

function isHttpLikeError(err: unknown): err is HttpLikeError {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number';
}

/** Maps an expected client error from a library (body parser, Koa) onto the catalogue. */
function fromHttpError(err: HttpLikeError): AppError | undefined {
  if (err.status < 400 || err.status >= 500 || err.expose === false) return undefined;
  switch (err.status) {
    case 400:
      // co-body rethrows JSON.parse's SyntaxError with status 400; raw-body failures carry a `type`.
      return new AppError(
        err instanceof SyntaxError || err.type === 'entity.parse.failed'
          ? 'malformed_json'
          : 'validation_failed',
      );
    case 401:
      return new AppError('unauthenticated');
    case 403:
      return new AppError('forbidden');
    case 404:
      return new AppError('not_found');
    case 413:
      return new AppError('payload_too_large');
    case 415:
      return new AppError('unsupported_media_type');
    default:
      return new AppError('validation_failed');
  }
}

/** Renders every error thrown below it as an ErrorResponse. */
export function errorRenderer(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const known = err instanceof AppError ? err : isHttpLikeError(err) ? fromHttpError(err) : undefined;
      const appError = known ?? new AppError('internal');
      const body: ErrorResponse = { error: appError.id, message: appError.message };
      if (appError.field) body.field = appError.field;
      if (!known) {
        logger.error(
          { err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path },
          'unexpected error',
        );
        body.message = `${ERROR_CATALOGUE.internal.message} Reference: ${ctx.state.requestId}`;
      }
      if (appError.retryAfterSeconds !== undefined)
        ctx.set('Retry-After', String(appError.retryAfterSeconds));
      ctx.status = appError.status;
      ctx.body = body;
    }
  };
}
