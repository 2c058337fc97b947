// Shared helper of the dashboard, strategy and payment component tests: a fetch double that answers by method and
// path (async answers allowed) and records every request.
import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface RouteAnswer {
  status?: number;
  body: unknown;
}

export type Route = RouteAnswer | ((req: RecordedRequest) => RouteAnswer | Promise<RouteAnswer>);

/** Stubs global fetch: routes are keyed "METHOD /path" (query included); unknown routes answer 404. */
export function mockApi(routes: Record<string, Route>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const req: RecordedRequest = { method, path: url, body };
    requests.push(req);
    const route = routes[`${method} ${url}`];
    const answer = typeof route === 'function' ? await route(req) : route;
    if (!answer) {
      return new Response(JSON.stringify({ error: 'not_found', message: `no route ${method} ${url}` }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  const called = (method: string, path: string) =>
    requests.filter((r) => r.method === method && r.path === path);
  return { requests, called, fetchMock };
}
