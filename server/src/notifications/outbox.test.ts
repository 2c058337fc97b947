import { afterEach, describe, expect, it } from 'vitest';
import { insertUser } from '../db';
import { openTestDatabase, testDialects, type TestDatabase } from '../db/testing';
import { recordAdminNotice, recordNotice } from './outbox';

describe.each(testDialects())('the notification outbox on %s', (dialect) => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  async function user(email: string, isAdmin = false) {
    const row = await insertUser(t!.db.knex, {
      email,
      first_name: 'A',
      last_name: 'B',
      password_hash: 'x',
    });
    if (isAdmin) await t!.db.knex('users').where({ id: row.id }).update({ is_admin: true });
    return row.id;
  }

  it('records a fact once, whatever the number of writes, and rolls back with the fact', async () => {
    t = await openTestDatabase(dialect);
    const { knex } = t.db;
    const trader = await user('t@example.com');
    const notice = {
      event: 'trade_closed' as const,
      userId: trader,
      factKey: '42',
      payload: { tradeId: 42, netPaise: -12_345 },
    };
    const first = await recordNotice(knex, notice, 1_000);
    expect(first).toBeTypeOf('number');
    expect(await recordNotice(knex, notice, 2_000)).toBeUndefined();

    // A notice written in a transaction that fails is gone with it.
    await expect(
      knex.transaction(async (trx) => {
        await recordNotice(trx, { ...notice, factKey: '43' }, 3_000);
        throw new Error('the fact failed');
      }),
    ).rejects.toThrow('the fact failed');

    const rows = await knex('notification_outbox').select(
      'event',
      'user_id',
      'payload',
      'dedupe_key',
      'status',
    );
    expect(rows).toEqual([
      {
        event: 'trade_closed',
        user_id: trader,
        payload: JSON.stringify({ tradeId: 42, netPaise: -12_345 }),
        dedupe_key: `trade_closed:42:${trader}`,
        status: 'pending',
      },
    ]);
  });

  it('records an admin event once for each admin and for no trader', async () => {
    t = await openTestDatabase(dialect);
    const { knex } = t.db;
    await user('t@example.com');
    const a1 = await user('a1@example.com', true);
    const a2 = await user('a2@example.com', true);
    const notice = { event: 'feed_down' as const, factKey: 'since:1000', payload: { since: 1_000 } };
    expect(await recordAdminNotice(knex, notice, 5_000)).toBe(2);
    expect(await recordAdminNotice(knex, notice, 6_000)).toBe(0);
    const rows = await knex('notification_outbox').orderBy('user_id').select('user_id');
    expect(rows.map((r: { user_id: number }) => r.user_id)).toEqual([a1, a2]);
  });
});
