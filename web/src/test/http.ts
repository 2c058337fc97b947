// Fake `fetch` for web tests: routes "METHOD /path" to canned responses and records every request.
import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export type FakeReply = { status: number; body?: unknown; text?: string; statusText?: string };

/** A JSON response as the server sends it. */
export function json(status: number, body: unknown): FakeReply {
  return { status, body };
}

/** Installs a fake fetch; `routes` maps "POST /api/auth/login" to a reply (or a function of the request). */
export function installFetch(routes: Record<string, FakeReply | ((request: RecordedRequest) => FakeReply)>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RecordedRequest = { method, path, headers, body, credentials: init.credentials };
    requests.push(request);
    const route = routes[`${method} ${path}`];
    if (!route)
      return new Response(JSON.stringify({ error: 'not_found', message: 'Not Found' }), { status: 404 });
    const reply = typeof route === 'function' ? route(request) : route;
    const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    return new Response(text || null, { status: reply.status, statusText: reply.statusText ?? '' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}
