// What an /api request may look like before any route sees it. A body must be plain JSON: a compressed body
// (Content-Encoding gzip/deflate/br) made the body parser fail with a 500 and an error-level stack trace on every
// POST — a log-flooding lever — and text/plain or form bodies were read as an empty object ("field required").
// Both are now a 415 naming the problem. Compressed JSON is not accepted at all: request bodies here are a few
// hundred bytes, and inflating them would only add a decompression-bomb surface. Image uploads pass as they are. OPTIONS answers 204 with the
// methods the path allows, instead of a 404.
import type { Middleware } from 'koa';
import type { Router } from '@koa/router';
import { AppError } from '../errors';
import type { AppState } from './context';
import { UNSUBSCRIBE_PATH } from '../notifications/unsubscribe';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** true when the request announces a body (a length above zero, or a chunked transfer) */
function announcesBody(headers: { get(name: string): string }): boolean {
  return headers.get('transfer-encoding') !== '' || Number(headers.get('content-length') || '0') > 0;
}

/** 415 for an /api request body that is compressed or not JSON; bodiless requests pass untouched. */
export function requireJsonBody(): Middleware<AppState> {
  return async (ctx, next) => {
    if (!isApiPath(ctx.path) || !BODY_METHODS.has(ctx.method) || !announcesBody(ctx)) return next();
    const encoding = ctx.get('content-encoding').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity') {
      throw new AppError('unsupported_media_type', {
        message: `Content-Encoding ${encoding.slice(0, 40)} is not accepted: send the JSON body uncompressed.`,
      });
    }
    // RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` as a form; the route reads
    // only its query string, and the body parser (JSON only) leaves the form unread.
    if (ctx.path === UNSUBSCRIBE_PATH && ctx.is('application/x-www-form-urlencoded', 'multipart/form-data')) {
      return next();
    }
    // Images are the one other body: QR codes and payment screenshots are uploaded as the file itself.
    if (!ctx.is('application/json', '+json', 'image/*', 'application/octet-stream')) {
      throw new AppError('unsupported_media_type', {
        message: 'Send the request body as JSON (Content-Type: application/json).',
      });
    }
    await next();
  };
}

/** Answers OPTIONS on a known /api path with 204 and `Allow`; unknown paths fall through (to the JSON 404). */
export function answerOptions(api: Router<AppState>): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.method !== 'OPTIONS' || !isApiPath(ctx.path)) return next();
    const methods = new Set(api.match(ctx.path, 'OPTIONS').path.flatMap((layer) => layer.methods));
    if (methods.size === 0) return next();
    methods.add('OPTIONS');
    ctx.set('Allow', [...methods].join(', '));
    ctx.status = 204;
  };
}
