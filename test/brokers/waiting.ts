// What the broker tests through the real server share: waiting for a condition (polled, with a deadline that names
// what was awaited), and a JSON call to a running harness's HTTP API.
import type { Harness } from '../integration/scriptedServer';

/** Resolves once `check` holds, polling every 50 ms; fails naming `what` after `ms`. */
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

/** Like `eventually`, letting the harness's trading runtime settle between checks (15 s). */
export async function settledUntil(check: () => Promise<boolean>, h: Harness, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
    await h.server.deps.trading.idle();
  }
}

/** A JSON call to the harness's API, as the browser makes it. */
export async function call(
  h: Harness,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
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
