// What the live-trading tests of every broker do alike, once: a subscribed trader with the bot on, over HTTP, who
// goes Live. Each broker's test adds its own login between the two (calls and waits: ./waiting.ts).
import { expect } from 'vitest';
import { saveTradingSettings, updateUser } from '../../server/src/db';
import { registration } from '../../server/src/testing/server';
import { T0, type Harness } from '../integration/scriptedServer';
import { api } from './waiting';

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
