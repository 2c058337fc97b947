// Types shared by every middleware and route: what a request carries in `ctx.state`.
import type { ParameterizedContext } from 'koa';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { Authenticated } from '../services/sessions';
import type { RequestMeta } from '../deps';
import { AppError } from '../errors';

export interface AppState {
  requestId: string;
  /** set by `requireAuth` */
  auth?: Authenticated;
}

export type AppContext = ParameterizedContext<AppState>;
export type RouteContext = RouterContext<AppState>;
export type RouteMiddleware = RouterMiddleware<AppState>;

/** Who is calling, for audit entries and session rows. */
export function metaOf(ctx: AppContext): RequestMeta {
  return { ip: ctx.ip, userAgent: ctx.get('user-agent') || null, requestId: ctx.state.requestId };
}

/** The authenticated caller; only valid behind `requireAuth` (a missing one is a 401, never a crash). */
export function authOf(ctx: AppContext): Authenticated {
  if (!ctx.state.auth) throw new AppError('unauthenticated');
  return ctx.state.auth;
}
