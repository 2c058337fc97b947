// Test helpers for every server test that needs a database: a fresh, migrated database per call on SQLite
// (temporary DATA_DIR) and, when TEST_DATABASE_URL is set, on PostgreSQL (a fresh schema, dropped afterwards,
// so parallel test files never collide). Use with `describe.each(testDialects())`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll } from 'vitest';
import { closeDatabase, openDatabase, type Database, type Dialect } from './knex';
import { migrateLatest } from './migrate';

/** The dialects this run can test: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDialects(): Dialect[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  db: Database;
  /** the temporary DATA_DIR (also used on PostgreSQL, for key files and uploads) */
  dataDir: string;
  /** closes the pool and removes the schema / directory */
  cleanup: () => Promise<void>;
}

/** Opens an empty database of `dialect`; `migrate` (default true) applies every migration. */
export async function openTestDatabase(
  dialect: Dialect,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'optionpilot-test-'));
  let db: Database;
  let dropSchema = async () => {};
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    try {
      await admin.raw(`CREATE SCHEMA ${schema}`);
    } finally {
      await admin.destroy();
    }
    db = openDatabase({ dataDir, databaseUrl: url, searchPath: schema });
    dropSchema = async () => {
      const again = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
      try {
        await again.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await again.destroy();
      }
    };
  } else {
    db = openDatabase({ dataDir });
  }
  if (options.migrate !== false) await migrateLatest(db);
  return {
    db,
    dataDir,
    cleanup: async () => {
      await closeDatabase(db);
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * For a `describe.each(testDialects())` block: one migrated database of `dialect` for the whole block, cleaned up
 * after it. Returns the block's Knex instance (call it inside tests: it exists once `beforeAll` has run).
 */
export function useTestDatabase(dialect: Dialect): () => Knex {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(async () => {
    await t?.cleanup();
  });
  return () => {
    if (!t) throw new Error('useTestDatabase: the database is opened in beforeAll');
    return t.db.knex;
  };
}
