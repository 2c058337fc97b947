import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { SubsystemStatus } from '../contract';
import { securePrivateDatabaseFile, securePrivateDir } from './fileModes';

export type Dialect = 'sqlite' | 'postgres';

/** An open database: the Knex instance and which dialect it speaks (some SQL, e.g. triggers, differs). */
export interface Database {
  readonly knex: Knex;
  readonly dialect: Dialect;
}

/** Anything a repository can run queries on: the global instance or a transaction. */
export type Db = Knex | Knex.Transaction;

export interface OpenDatabaseOptions {
  /** `DATA_DIR`: the SQLite file lives here (created if missing) */
  dataDir: string;
  /** `DATABASE_URL`; `postgres://` or `postgresql://` switches to PostgreSQL, anything else/undefined is SQLite */
  databaseUrl?: string | undefined;
  /** PostgreSQL only: schema to put first on the search path (tests use one fresh schema per file) */
  searchPath?: string | undefined;
}

export const SQLITE_FILE_NAME = 'optionpilot.sqlite3';

/** true when the URL selects PostgreSQL */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

// Scoped to our pool (not pg's global registry): BIGINT (int8, OID 20) columns hold epoch ms and paise, all far
// below 2^53, so they are parsed as numbers exactly like SQLite returns them. NUMERIC (OID 1700) comes back from
// SUM()/AVG() over integer columns; parsing it as a number keeps aggregate results identical across dialects.
const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;
const pgTypes: Knex.PgCustomTypesConfig = {
  getTypeParser(oid: number, format: string): unknown {
    if (oid === PG_INT8_OID || oid === PG_NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text');
  },
};

type SqliteConnection = BetterSqlite3.Database;

/** Statements kept per SQLite connection; the hot queries (sessions, users, stats) are a handful of texts. */
export const STATEMENT_CACHE_SIZE = 256;

/**
 * Makes `conn.prepare` reuse statements by SQL text (least recently used evicted). Knex prepares every query
 * afresh, which was ~10 % of an authenticated request's CPU in the bench:live profile. Reuse is safe here: Knex
 * only calls `all()`/`run()` (a statement finishes synchronously before the next use) and never changes a
 * statement's modes (`raw`, `pluck`, `safeIntegers` — only when a query asks, which ours never do); SQLite
 * re-prepares a cached statement by itself after a schema change. Failed prepares are not cached.
 */
export function cacheStatements(conn: SqliteConnection, size = STATEMENT_CACHE_SIZE): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, BetterSqlite3.Statement>();
  conn.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached !== undefined) {
      cache.delete(source); // re-insert: Map iteration order is the recency order
      cache.set(source, cached);
      return cached;
    }
    const statement = prepare(source);
    cache.set(source, statement);
    if (cache.size > size) cache.delete(cache.keys().next().value as string);
    return statement;
  }) as SqliteConnection['prepare'];
}

/** A second, read-only SQLite connection for the hot SELECTs (see selectRows); opened at its first use. */
interface SqliteReader {
  rows(sql: string, bindings: readonly SqlValue[]): Record<string, unknown>[];
  close(): void;
}

/** The reader of each SQLite Knex instance. A transaction is a different object, so it never finds one. */
const sqliteReaders = new WeakMap<Knex, SqliteReader>();

function createSqliteReader(filename: string): SqliteReader {
  let conn: BetterSqlite3.Database | undefined;
  let closed = false;
  const open = () => {
    if (closed) throw new Error('The database is closed.');
    const opened = new BetterSqlite3(filename, { readonly: true, fileMustExist: true });
    opened.pragma('busy_timeout = 5000');
    cacheStatements(opened);
    return opened;
  };
  return {
    rows(sql, bindings) {
      conn ??= open();
      return conn.prepare(sql).all(bindings) as Record<string, unknown>[];
    },
    close() {
      closed = true;
      conn?.close();
      conn = undefined;
    },
  };
}

/** Opens SQLite in `dataDir` (WAL, foreign keys on, one connection) or PostgreSQL when `databaseUrl` says so. */
export function openDatabase(options: OpenDatabaseOptions): Database {
  if (isPostgresUrl(options.databaseUrl)) {
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString: options.databaseUrl, types: pgTypes },
      // A failed query's message would otherwise embed its bound values (a password hash, a sealed secret) and
      // reach the logs.
      compileSqlOnError: false,
      ...(options.searchPath ? { searchPath: [options.searchPath] } : {}),
      pool: { min: 0, max: 10 },
    });
    return { knex, dialect: 'postgres' };
  }

  securePrivateDir(options.dataDir);
  const filename = join(options.dataDir, SQLITE_FILE_NAME);
  securePrivateDatabaseFile(filename);
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    compileSqlOnError: false,
    // SQLite allows one writer; a single pooled connection serialises all work through Knex. Consequence (STYLE
    // §8): inside a transaction, query only through `trx` — the global instance would wait for the same connection.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: SqliteConnection) => void) {
        try {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('synchronous = NORMAL');
          cacheStatements(conn);
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  });
  sqliteReaders.set(knex, createSqliteReader(filename));
  return { knex, dialect: 'sqlite' };
}

/** A value bound to a hand-written query's `?`. */
export type SqlValue = string | number | null;

/**
 * Runs a hand-written SELECT (`?` placeholders, double-quoted identifiers: valid on both dialects) and returns
 * its rows. For the few queries on every request's path (session check, dashboard totals): through Knex each
 * costs 20–45 µs to build, pool and run, several times what SQLite takes to answer it.
 *
 * On SQLite, outside a transaction, the query runs synchronously on a second, read-only connection with cached
 * statements (~3 µs). In WAL mode that connection reads the last committed state, exactly what the Knex connection
 * would show outside a transaction, and it never waits for the single writer connection. Inside a transaction
 * (`db` is a `trx`) the query goes through Knex so it sees the transaction's own writes.
 */
export async function selectRows(
  db: Db,
  sql: string,
  bindings: readonly SqlValue[],
): Promise<Record<string, unknown>[]> {
  const reader = sqliteReaders.get(db as Knex);
  if (reader) return reader.rows(sql, bindings);
  const result = (await db.raw(sql, bindings)) as
    Record<string, unknown>[] | { rows: Record<string, unknown>[] };
  // better-sqlite3 answers with the rows, pg with a result object carrying them.
  return Array.isArray(result) ? result : result.rows;
}

/** The text of an `insert … values (…), (…)` of `count` rows, kept per shape: a fan-out repeats a few shapes. */
const insertTexts = new Map<string, string>();
const INSERT_TEXTS_KEPT = 512;

function insertText(table: string, columns: readonly string[], count: number, tail: string): string {
  const key = `${table}|${columns.join(',')}|${count}|${tail}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array.from(
      { length: count },
      () => row,
    ).join(', ')}${tail === '' ? '' : ` ${tail}`}`;
    if (insertTexts.size >= INSERT_TEXTS_KEPT) insertTexts.clear();
    insertTexts.set(key, text);
  }
  return text;
}

/**
 * Inserts rows (objects with the same keys, in the same order; values already in their stored form: JSON as text)
 * in one hand-written `insert … values (…), (…)` statement, valid on both dialects, and returns the rows `tail`
 * asks for (`returning …`, an `on conflict …` clause). For the writes of a fan-out (orders, their audit events,
 * log lines, trades): Knex builds a multi-row insert on SQLite as `select ? as "col" union all …`, wrapping every
 * column name of every row, which cost more than SQLite took to store the rows. Booleans are bound as 1/0 on
 * SQLite by Knex itself.
 */
export async function insertRows(
  db: Db,
  table: string,
  rows: ReadonlyArray<Readonly<Record<string, SqlValue | boolean>>>,
  tail = '',
): Promise<Record<string, unknown>[]> {
  const first = rows[0];
  if (first === undefined) return [];
  const columns = Object.keys(first);
  const bindings: Array<SqlValue | boolean> = [];
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column];
      if (value === undefined) throw new Error(`insertRows: ${table}.${column} missing in a row`);
      bindings.push(value);
    }
  }
  const result = (await db.raw(insertText(table, columns, rows.length, tail), bindings)) as
    Record<string, unknown>[] | { rows: Record<string, unknown>[] } | { changes: number };
  // better-sqlite3 answers a statement with RETURNING with its rows (without, with a run summary); pg with a result
  // object carrying them.
  if (Array.isArray(result)) return result;
  return 'rows' in result ? result.rows : [];
}

/** Closes the pool; the instance cannot be used afterwards. */
export async function closeDatabase(db: Database): Promise<void> {
  sqliteReaders.get(db.knex)?.close();
  await db.knex.destroy();
}

export interface DatabaseHealth {
  status: SubsystemStatus;
  /** public: the dialect and whether it answers; never the driver's message (hosts, ports, user names) */
  detail?: string;
  /** the driver's message when the check failed, for the server log only */
  cause?: string;
}

/** A round trip to the database for the health endpoint; never throws. */
export async function checkDatabase(db: Database, timeoutMs = 2000): Promise<DatabaseHealth> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([db.knex.raw('select 1 as ok'), timeout]);
    return { status: 'ok', detail: db.dialect };
  } catch (err) {
    return {
      status: 'down',
      detail: `${db.dialect}: not answering`,
      cause: err instanceof Error ? err.message : String(err),
    };
  } finally {
    if (timer) clearTimeout(timer);
  }
}
