// Fake `fetch` for web tests: routes "METHOD /path" (query included) to canned responses and records every
// request; an unknown route answers 404 the way the server does. `installFetch` takes full replies (status
// required); `mockApi` is the shorthand of the component tests (status defaults to 200, `called` filters requests).
import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export type FakeReply = { status: number; body?: unknown; text?: string; statusText?: string };
type FakeRoute = FakeReply | ((request: RecordedRequest) => FakeReply | Promise<FakeReply>);

/** A JSON response as the server sends it. */
export function json(status: number, body: unknown): FakeReply {
  return { status, body };
}

/** Installs a fake fetch; `routes` maps "POST /api/auth/login" to a reply (or a function of the request). */
export function installFetch(routes: Record<string, FakeRoute>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const path = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RecordedRequest = { method, path, headers, body, credentials: init.credentials };
    requests.push(request);
    const route = routes[`${method} ${path}`];
    if (!route) {
      const notFound = { error: 'not_found', message: `No API endpoint ${method} ${path}.` };
      return new Response(JSON.stringify(notFound), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    const reply = typeof route === 'function' ? await route(request) : route;
    const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    return new Response(text || null, {
      status: reply.status,
      statusText: reply.statusText ?? '',
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}

/** A component test's answer: 200 unless told otherwise. */
export interface RouteAnswer {
  status?: number;
  body: unknown;
}

export type Route = RouteAnswer | ((req: RecordedRequest) => RouteAnswer | Promise<RouteAnswer>);

/** `installFetch` with 200 as the default status, plus `called(method, path)`. */
export function mockApi(routes: Record<string, Route>) {
  const replies: Record<string, FakeRoute> = {};
  for (const [key, route] of Object.entries(routes)) {
    replies[key] = async (request) => {
      const answer = typeof route === 'function' ? await route(request) : route;
      return { status: answer.status ?? 200, body: answer.body };
    };
  }
  const { fetchMock, requests } = installFetch(replies);
  const called = (method: string, path: string) =>
    requests.filter((r) => r.method === method && r.path === path);
  return { requests, called, fetchMock };
}
