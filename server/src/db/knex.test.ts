import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testDialects, type TestDatabase } from './testing';
import {
  cacheStatements,
  checkDatabase,
  closeDatabase,
  insertRows,
  isPostgresUrl,
  openDatabase,
  selectRows,
  SQLITE_FILE_NAME,
  type Database,
} from './knex';

describe('openDatabase (SQLite)', () => {
  let dir = '';
  let db: Database | undefined;
  afterEach(async () => {
    if (db) await closeDatabase(db);
    db = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the file in DATA_DIR with WAL, foreign keys, busy timeout and synchronous=NORMAL', async () => {
    dir = join(mkdtempSync(join(tmpdir(), 'op-knex-')), 'nested');
    db = openDatabase({ dataDir: dir });
    expect(db.dialect).toBe('sqlite');
    const pragma = async (name: string) => {
      const rows = (await db!.knex.raw(`PRAGMA ${name}`)) as Array<Record<string, unknown>>;
      return Object.values(rows[0] ?? {})[0];
    };
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
    expect(await pragma('synchronous')).toBe(1); // NORMAL
    expect(existsSync(join(dir, SQLITE_FILE_NAME))).toBe(true);
  });

  it('reports the database down once closed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'op-knex-'));
    const closed = openDatabase({ dataDir: dir });
    await closeDatabase(closed);
    const health = await checkDatabase(closed);
    expect(health.status).toBe('down');
    expect(health.detail).toBe('sqlite: not answering');
    expect(health.cause).toMatch(/\w/); // the driver's reason, for the log
  });
});

describe('isPostgresUrl', () => {
  it('selects PostgreSQL only for postgres:// and postgresql:// URLs', () => {
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true);
    expect(isPostgresUrl('sqlite:///tmp/x')).toBe(false);
    expect(isPostgresUrl('')).toBe(false);
    expect(isPostgresUrl(undefined)).toBe(false);
  });
});

describe('cacheStatements', () => {
  it('hands out one statement per SQL text and evicts the least recently used past the size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'op-knex-'));
    const conn = new BetterSqlite3(join(dir, 'cache.sqlite3'));
    try {
      cacheStatements(conn, 2);
      const a = conn.prepare('select 1 as v');
      expect(conn.prepare('select 1 as v')).toBe(a);
      const b = conn.prepare('select 2 as v');
      expect(conn.prepare('select 1 as v')).toBe(a); // a is now the most recent
      conn.prepare('select 3 as v'); // evicts b
      expect(conn.prepare('select 1 as v')).toBe(a);
      expect(conn.prepare('select 2 as v')).not.toBe(b);
      expect(conn.prepare('select 2 as v').get()).toEqual({ v: 2 });
      // A failed prepare is not cached: it fails again, and a good text still works afterwards.
      expect(() => conn.prepare('select nonsense from nowhere')).toThrow();
      expect(() => conn.prepare('select nonsense from nowhere')).toThrow();
    } finally {
      conn.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(testDialects())('selectRows (%s)', (dialect) => {
  let t: TestDatabase;
  afterEach(async () => {
    await t.cleanup();
  });

  it('returns rows as objects, sees committed writes, and inside a transaction sees its own', async () => {
    t = await openTestDatabase(dialect, { migrate: false });
    const { knex } = t.db;
    await knex.schema.createTable('things', (table) => {
      table.integer('id').primary();
      table.string('name');
    });
    await knex('things').insert({ id: 1, name: 'one' });
    const sql = 'select "id", "name" from "things" where "id" >= ? order by "id"';
    expect(await selectRows(knex, sql, [1])).toEqual([{ id: 1, name: 'one' }]);

    await knex.transaction(async (trx) => {
      await trx('things').insert({ id: 2, name: 'two' });
      expect(await selectRows(trx, sql, [1])).toEqual([
        { id: 1, name: 'one' },
        { id: 2, name: 'two' },
      ]);
      // Outside the transaction its uncommitted row is invisible (SQLite: answered by the read-only connection
      // without waiting for the writer the transaction holds).
      expect(await selectRows(knex, sql, [1])).toEqual([{ id: 1, name: 'one' }]);
    });
    expect(await selectRows(knex, sql, [2])).toEqual([{ id: 2, name: 'two' }]);
    await expect(selectRows(knex, 'select * from "missing_table"', [])).rejects.toThrow(/missing_table/);
    await closeDatabase(t.db);
    await expect(selectRows(knex, sql, [1])).rejects.toThrow();
  });
});

describe.each(testDialects())('insertRows (%s)', (dialect) => {
  let t: TestDatabase;
  afterEach(async () => {
    await t.cleanup();
  });

  it('inserts many rows in one statement, binds booleans, returns what the tail asks and upserts', async () => {
    t = await openTestDatabase(dialect, { migrate: false });
    const { knex } = t.db;
    await knex.schema.createTable('things', (table) => {
      table.increments('id');
      table.string('name').notNullable().unique();
      table.boolean('live').notNullable();
      table.integer('size');
    });
    const rows = [
      { name: 'a', live: true, size: 1 },
      { name: 'b', live: false, size: null },
    ];
    const returned = await insertRows(knex, 'things', rows, 'returning "id", "name"');
    expect(returned.map((r) => r.name).sort()).toEqual(['a', 'b']);
    // Without a tail nothing comes back, and the rows are stored all the same.
    expect(await insertRows(knex, 'things', [{ name: 'c', live: true, size: 3 }])).toEqual([]);
    await insertRows(
      knex,
      'things',
      [{ name: 'a', live: false, size: 9 }],
      'on conflict ("name") do update set "size" = excluded."size"',
    );
    const stored = (await knex('things').orderBy('name')) as Array<{
      name: string;
      live: unknown;
      size: unknown;
    }>;
    expect(stored.map((r) => [r.name, Boolean(r.live), r.size === null ? null : Number(r.size)])).toEqual([
      ['a', true, 9],
      ['b', false, null],
      ['c', true, 3],
    ]);
    // A repeated unique value fails the whole statement: nothing of it is stored.
    await expect(
      insertRows(knex, 'things', [
        { name: 'd', live: true, size: 4 },
        { name: 'b', live: true, size: 5 },
      ]),
    ).rejects.toThrow();
    expect(await knex('things').where({ name: 'd' })).toEqual([]);
    expect(await insertRows(knex, 'things', [])).toEqual([]);
  });
});
