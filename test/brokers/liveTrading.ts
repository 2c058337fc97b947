// What the live-trading and feed tests of every broker do alike, once: HTTP calls to the real server, waiting on the
// trading service, and a subscribed trader with the bot on who goes Live. Each broker's test adds its own login.
import { expect } from 'vitest';
import { saveTradingSettings, updateUser } from '../../server/src/db';
import { registration } from '../../server/src/testing/server';
import { T0, type Harness } from '../integration/scriptedServer';

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

/** Waits for `check`, letting the trading service settle between tries (a broker's updates arrive meanwhile). */
export async function untilSettled(check: () => Promise<boolean>, h: Harness, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
    await h.server.deps.trading.idle();
  }
}

/** Waits for `check` on the wall clock. */
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

/** A trader signed up over HTTP with an active subscription and the bot on (one lot). */
export async function subscribedTrader(
  h: Harness,
  handle: string,
): Promise<{ userId: number; token: string }> {
  const registered = await api(h, 'POST', '/api/auth/register', registration(handle));
  expect(registered.status, registered.text).toBe(201);
  const token = registered.json.token as string;
  const userId = (registered.json.user as { id: number }).id;
  const knex = h.server.deps.db.knex;
  await updateUser(knex, userId, {
    subscription_status: 'active',
    subscription_start_at: T0 - 86_400_000,
    subscription_end_at: Date.UTC(2099, 0, 1),
  });
  await saveTradingSettings(knex, userId, { bot_enabled: true, target_points: 40, trade_quantity: 1 });
  return { userId, token };
}

/** Switches a connected trader to Live, accepting the risk disclosure. */
export async function goLive(h: Harness, userId: number, token: string): Promise<void> {
  const live = await api(h, 'PUT', '/api/user/trading-mode', { mode: 'live', acceptRisk: true }, token);
  expect(live.status, live.text).toBe(200);
  expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('live');
}
