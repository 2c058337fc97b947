// `GET /metrics`: the Prometheus scrape. It tells an attacker about trading activity and load, so it is never
// public: with METRICS_TOKEN set it needs `Authorization: Bearer <token>` from anywhere; unset, it answers only a
// connection from the machine itself. Loopback is judged on the TCP peer, never on X-Forwarded-For, and with
// TRUST_PROXY on it is not enough: a reverse proxy on the same machine makes every visitor's connection local, so
// a proxied server serves /metrics only with a token.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Config } from '../config';
import { AppError } from '../errors';
import type { AppState } from '../middleware/context';
import type { Metrics } from './metrics';

export const METRICS_PATH = '/metrics';

/** The machine itself: IPv4 127.0.0.0/8 (also as an IPv4-mapped IPv6 address) and IPv6 ::1. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** Who is scraping: the Authorization header and the TCP peer's address. */
export interface Scrape {
  readonly authorization: string | undefined;
  readonly remoteAddress: string | undefined;
}

/** Compared as digests: equal lengths for timingSafeEqual, and no early exit that times the token's prefix. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Why a scrape is refused (an AppError to render), or undefined when it may read the metrics. */
export function scrapeRefusal(
  config: Pick<Config, 'metricsToken' | 'trustProxy'>,
  scrape: Scrape,
): AppError | undefined {
  if (config.metricsToken !== undefined) {
    const [scheme, token] = (scrape.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() === 'bearer' && token !== undefined && sameToken(token, config.metricsToken)) {
      return undefined;
    }
    return new AppError('unauthenticated', {
      message: 'Send the METRICS_TOKEN as Authorization: Bearer <token>.',
      field: 'authorization',
    });
  }
  if (config.trustProxy) {
    return new AppError('forbidden', {
      message: 'Set METRICS_TOKEN to scrape /metrics behind a reverse proxy.',
    });
  }
  if (!isLoopback(scrape.remoteAddress)) {
    return new AppError('forbidden', {
      message: 'Without METRICS_TOKEN, /metrics answers only connections from this machine.',
    });
  }
  return undefined;
}

/** Serves the scrape at `/metrics`; every other path goes on. */
export function metricsEndpoint(props: {
  config: Pick<Config, 'metricsToken' | 'trustProxy'>;
  metrics: Pick<Metrics, 'render' | 'contentType'>;
}): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new AppError('not_found');
    }
    const refusal = scrapeRefusal(props.config, {
      authorization: ctx.get('authorization') || undefined,
      remoteAddress: ctx.req.socket.remoteAddress,
    });
    if (refusal !== undefined) {
      if (refusal.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw refusal;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = props.metrics.contentType;
    ctx.body = await props.metrics.render();
  };
}
