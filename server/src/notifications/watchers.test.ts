// The admin events the trading service observes: a feed silent for more than 30 s in session (once per outage),
// five broker errors within five minutes (once per broker and window), a start with positions open.
import { describe, expect, it } from 'vitest';
import { insertUser } from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { createBrokerErrorCounter, createFeedDownWatcher, recordRestartWithOpenPositions } from './watchers';

const T = Date.UTC(2026, 0, 7, 5, 0);

describe.each(testDialects())('admin event watchers (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);
  let n = 0;

  async function admin() {
    n += 1;
    const row = await insertUser(knex(), {
      email: `watch${n}@example.com`,
      first_name: 'A',
      last_name: 'D',
      password_hash: 'x',
    });
    await knex()('users').where({ id: row.id }).update({ is_admin: true });
    return row.id;
  }

  const notices = async (event: string, userId: number) =>
    (
      (await knex()('notification_outbox').where({ event, user_id: userId }).orderBy('id')) as Array<{
        payload: string;
      }>
    ).map((r) => JSON.parse(r.payload) as unknown);

  it('feed down: once per outage after 30 s of silence in session; never outside the session', async () => {
    const id = await admin();
    const watcher = createFeedDownWatcher({ db: knex(), feedKind: () => 'zerodha' });
    const down = (lastTickAt: number | null) => ({ status: 'down' as const, lastTickAt });

    expect(await watcher.check(down(T), true, T + 30_000)).toBe(false);
    expect(await watcher.check(down(T), false, T + 60_000)).toBe(false);
    expect(await watcher.check(down(T), true, T + 30_001)).toBe(true);
    expect(await watcher.check(down(T), true, T + 90_000)).toBe(false);
    // The feed comes back, then falls silent again: a new outage.
    expect(await watcher.check({ status: 'live', lastTickAt: T + 100_000 }, true, T + 100_000)).toBe(false);
    expect(await watcher.check(down(T + 100_000), true, T + 140_000)).toBe(true);
    // A second watcher (after a restart) seeing the same outage records nothing more.
    const again = createFeedDownWatcher({ db: knex(), feedKind: () => 'zerodha' });
    expect(await again.check(down(T + 100_000), true, T + 150_000)).toBe(false);

    expect(await notices('feed_down', id)).toEqual([
      { feed: 'zerodha', status: 'down', since: T, at: T + 30_001 },
      { feed: 'zerodha', status: 'down', since: T + 100_000, at: T + 140_000 },
    ]);
  });

  it('feed down before any tick: silence counts from when it was first seen in session', async () => {
    const id = await admin();
    const watcher = createFeedDownWatcher({ db: knex(), feedKind: () => 'upstox' });
    const silent = { status: 'down' as const, lastTickAt: null };
    expect(await watcher.check(silent, true, T + 1_000_000)).toBe(false);
    expect(await watcher.check(silent, true, T + 1_030_000)).toBe(false);
    expect(await watcher.check(silent, true, T + 1_030_001)).toBe(true);
    expect(await notices('feed_down', id)).toContainEqual(
      expect.objectContaining({ feed: 'upstox', since: T + 1_000_000 }),
    );
  });

  it('broker errors: the fifth within five minutes records one notice per broker, then a quiet window', async () => {
    const id = await admin();
    const counter = createBrokerErrorCounter({ db: knex() });
    const results: boolean[] = [];
    // Four errors; the first is five minutes old (out of the window) when the fourth arrives.
    for (const at of [T, T + 200_000, T + 250_000, T + 300_000])
      results.push(await counter.count('fyers', 'timeout', at));
    expect(results).toEqual([false, false, false, false]);
    results.length = 0;
    // Other brokers count on their own.
    for (let i = 0; i < 4; i += 1) results.push(await counter.count('zerodha', 'network', T + 301_000 + i));
    results.push(await counter.count('fyers', 'timeout', T + 310_000));
    results.push(await counter.count('fyers', 'HTTP 503', T + 320_000));
    expect(results).toEqual([false, false, false, false, false, true]);
    // The next five minutes count into a new window without a second alarm.
    for (let i = 0; i < 6; i += 1)
      expect(await counter.count('fyers', 'HTTP 503', T + 330_000 + i)).toBe(false);

    expect(await notices('broker_errors', id)).toEqual([
      {
        broker: 'fyers',
        count: 5,
        windowStart: T + 200_000,
        windowMinutes: 5,
        lastError: 'HTTP 503',
        at: T + 320_000,
      },
    ]);
  });

  it('restart: recorded when positions were restored, not for an empty start', async () => {
    const id = await admin();
    expect(await recordRestartWithOpenPositions(knex(), { openTrades: 0, liveTrades: 0, startedAt: T })).toBe(
      false,
    );
    expect(await recordRestartWithOpenPositions(knex(), { openTrades: 3, liveTrades: 1, startedAt: T })).toBe(
      true,
    );
    expect(await notices('restart_with_open_positions', id)).toEqual([
      { openTrades: 3, liveTrades: 1, at: T },
    ]);
  });
});
