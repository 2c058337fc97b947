// Gives every request an id (the caller's X-Request-Id when it is sane, else a new UUID), echoes it in the
// response and logs one line per request with it. Headers and bodies are not logged (they carry credentials).
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { createAccessLogger, type Logger } from '../logger';
import type { AppState } from './context';

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Request id + access log. */
export function requestContext(logger: Logger): Middleware<AppState> {
  const accessLog = createAccessLogger(logger);
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const level = ctx.status >= 500 ? 'error' : 'info';
      accessLog[level](
        {
          requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(performance.now() - started),
          userId: ctx.state.auth?.user.id,
        },
        'request',
      );
    }
  };
}
