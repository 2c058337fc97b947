import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkDatabase,
  closeDatabase,
  isPostgresUrl,
  openDatabase,
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
