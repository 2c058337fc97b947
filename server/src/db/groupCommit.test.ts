// Group commit on SQLite and PostgreSQL: writes queued together share one transaction, each resolves only once it
// is committed, in queue order; a failing write rejects only its own caller; a long queue commits in bounded batches.
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './errors';
import { createGroupCommit } from './groupCommit';
import { testDialects, useTestDatabase } from './testing';

describe.each(testDialects())('createGroupCommit (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);

  it('commits writes queued together, in order, each resolved only after its commit', async () => {
    const writes = createGroupCommit<number, number>({
      knex: knex(),
      work: async (trx, n) => {
        await trx('contact_messages').insert({
          name: `Writer ${n}`,
          email: `w${n}@example.com`,
          message: `message ${n}`,
          created_at: n,
        });
        return n;
      },
    });
    const results = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const value = await writes.write(i);
        // Durable when resolved: visible to a read outside the batch.
        const row = await knex()('contact_messages')
          .where({ message: `message ${i}` })
          .first();
        expect(row).toBeDefined();
        return value;
      }),
    );
    expect(results).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const stored = (await knex()('contact_messages')
      .where('message', 'like', 'message %')
      .orderBy('id')
      .select('message')) as Array<{ message: string }>;
    expect(stored.map((r) => r.message)).toEqual(results.map((i) => `message ${i}`));
  });

  it('rolls back only the failing write and rejects only its caller', async () => {
    const writes = createGroupCommit<string, string>({
      knex: knex(),
      work: async (trx, key) => {
        await trx('invoice_counters').insert({ financial_year: key, last_number: 0, updated_at: 1 });
        return key;
      },
    });
    const outcomes = await Promise.allSettled([
      writes.write('1990-91'),
      writes.write('1990-91'),
      writes.write('1991-92'),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: '1990-91' });
    expect(outcomes[1]?.status).toBe('rejected');
    expect(isUniqueViolation((outcomes[1] as PromiseRejectedResult).reason)).toBe(true);
    expect(outcomes[2]).toMatchObject({ status: 'fulfilled', value: '1991-92' });
    const years = (await knex()('invoice_counters')
      .whereIn('financial_year', ['1990-91', '1991-92'])
      .orderBy('financial_year')) as Array<{ financial_year: string }>;
    expect(years.map((y) => y.financial_year)).toEqual(['1990-91', '1991-92']);
  });

  it('splits a large queue into bounded batches', async () => {
    const sizes: number[] = [];
    let current = 0;
    const writes = createGroupCommit<number, void>({
      knex: knex(),
      maxBatch: 10,
      work: async (trx, n) => {
        current += 1;
        if (n % 10 === 9) {
          sizes.push(current);
          current = 0;
        }
        await trx.raw('select 1');
      },
    });
    const all = Array.from({ length: 35 }, (_, i) => writes.write(i));
    await Promise.all(all);
    expect(sizes).toEqual([10, 10, 10]);
    expect(current).toBe(5);
  });

  it('writes a batch whole with workMany, and one by one when the whole write fails', async () => {
    const calls: string[] = [];
    const writes = createGroupCommit<string, string>({
      knex: knex(),
      work: async (trx, key) => {
        calls.push(`one ${key}`);
        await trx('invoice_counters').insert({ financial_year: key, last_number: 0, updated_at: 1 });
        return key;
      },
      workMany: async (trx, keys) => {
        calls.push(`many ${keys.length}`);
        await trx('invoice_counters').insert(
          keys.map((key) => ({ financial_year: key, last_number: 0, updated_at: 1 })),
        );
        return [...keys];
      },
    });
    expect(await Promise.all([writes.write('1980-81'), writes.write('1981-82')])).toEqual([
      '1980-81',
      '1981-82',
    ]);
    expect(calls).toEqual(['many 2']);

    // A repeated key fails the multi-row insert: nothing of it stays, and each item is written again on its own.
    calls.length = 0;
    const outcomes = await Promise.allSettled([
      writes.write('1982-83'),
      writes.write('1980-81'),
      writes.write('1983-84'),
    ]);
    expect(calls).toEqual(['many 3', 'one 1982-83', 'one 1980-81', 'one 1983-84']);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const years = (await knex()('invoice_counters')
      .where('financial_year', 'like', '198%')
      .orderBy('financial_year')) as Array<{ financial_year: string }>;
    expect(years.map((y) => y.financial_year)).toEqual(['1980-81', '1981-82', '1982-83', '1983-84']);
  });

  it('rolls back a workMany that answers for fewer items than it was given, then writes one by one', async () => {
    const writes = createGroupCommit<string, string>({
      knex: knex(),
      work: async (trx, key) => {
        await trx('invoice_counters').insert({ financial_year: key, last_number: 0, updated_at: 1 });
        return key;
      },
      workMany: async (trx, keys) => {
        await trx('invoice_counters').insert(
          keys.map((key) => ({ financial_year: key, last_number: 0, updated_at: 1 })),
        );
        return keys.slice(1);
      },
    });
    expect(await Promise.all([writes.write('1970-71'), writes.write('1971-72')])).toEqual([
      '1970-71',
      '1971-72',
    ]);
    const years = (await knex()('invoice_counters').where('financial_year', 'like', '197%')) as unknown[];
    expect(years).toHaveLength(2);
  });
});
