// Expiry after a restart: a subscription that ended while the server was down is expired by the first run, audited
// once, and the trading engine is told; a renewed or still-running subscription is left alone.
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { createLogger } from '../logger';
import { insertUser, updateUser, type Database } from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { startSubscriptionJobs, expireDueSubscriptions } from './expiry';

const DAY = 86_400_000;

describe.each(testDialects())('subscription expiry (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);
  const clock = createManualClock(Date.UTC(2026, 10, 23, 0, 0, 0));
  const published: string[] = [];
  const deps = () => ({
    db: { knex: knex() } as unknown as Database,
    clock,
    logger: createLogger({ level: 'silent' }),
    realtime: { toAdmins: (event: string) => published.push(event) } as never,
    mailer: null,
    config: { publicUrl: 'https://trade.example.in' },
  });

  async function subscriber(email: string, endAt: number) {
    const user = await insertUser(knex(), { email, first_name: 'A', last_name: 'B', password_hash: 'x' });
    return updateUser(knex(), user.id, { subscription_status: 'active', subscription_end_at: endAt });
  }

  it('expires on the first run after a restart what ended yesterday, once, and tells the engine', async () => {
    const lapsed = (await subscriber('lapsed@example.com', clock.now() - DAY))!;
    const running = (await subscriber('running@example.com', clock.now() + DAY))!;
    const changed: number[] = [];
    const jobs = startSubscriptionJobs({ deps: deps(), onUserChanged: async (id) => void changed.push(id) });
    await jobs.ready;
    jobs.stop();
    expect(changed).toEqual([lapsed.id]);
    const rows = (await knex()('users').whereIn('id', [lapsed.id, running.id]).orderBy('id')) as Array<{
      subscription_status: string;
    }>;
    expect(rows.map((r) => r.subscription_status)).toEqual(['expired', 'active']);
    const audit = await knex()('logs').where({ user_id: lapsed.id });
    expect(audit).toHaveLength(1);
    expect(String((audit[0] as { description: string }).description)).toContain('Subscription expired');
    expect(published).toContain('admin:log');

    // A second run has nothing left to do.
    expect(await expireDueSubscriptions({ deps: deps(), onUserChanged: async () => {} })).toEqual([]);
    // The running one expires once its end passes.
    clock.advance(2 * DAY);
    expect(await expireDueSubscriptions({ deps: deps(), onUserChanged: async () => {} })).toEqual([
      running.id,
    ]);
  });
});
