import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { SubsystemStatus } from '../contract';

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

/** The part of a better-sqlite3 connection we touch (the package ships no types). */
interface SqliteConnection {
  pragma(source: string): unknown;
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

  mkdirSync(options.dataDir, { recursive: true });
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: join(options.dataDir, SQLITE_FILE_NAME) },
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
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  });
  return { knex, dialect: 'sqlite' };
}

/** Closes the pool; the instance cannot be used afterwards. */
export async function closeDatabase(db: Database): Promise<void> {
  await db.knex.destroy();
}

export interface DatabaseHealth {
  status: SubsystemStatus;
  detail?: string;
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
    return { status: 'down', detail: `${db.dialect}: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    if (timer) clearTimeout(timer);
  }
}
