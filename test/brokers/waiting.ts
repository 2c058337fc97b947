// What the broker tests through the real server share for talking to it: a JSON call to a running harness's HTTP
// API as the web app makes it, and waiting for a condition (polled, with a deadline that names what was awaited).
import type { Harness } from '../integration/scriptedServer';

export interface ApiAnswer {
  readonly status: number;
  readonly json: Record<string, unknown>;
  readonly text: string;
}

/** One JSON call to the harness's server, as the web app makes it. */
export async function api(
  h: Harness,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<ApiAnswer> {
  const res = await fetch(`${h.server.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text || '{}') as Record<string, unknown>, text };
}

/** Resolves once `check` holds on the wall clock, polling every 50 ms; fails naming `what` after `ms`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 10_000,
): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Like `eventually` (15 s), letting the trading service settle between tries (a broker's updates arrive meanwhile). */
export async function untilSettled(check: () => Promise<boolean>, h: Harness, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
    await h.server.deps.trading.idle();
  }
}
