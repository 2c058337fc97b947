import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateJwtKey, loadOrCreateKey } from '../crypto';
import { closeDatabase, openDatabase, SQLITE_FILE_NAME } from './knex';
import { migrateLatest } from './migrate';

const root = mkdtempSync(join(tmpdir(), 'optionpilot-modes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('DATA_DIR file modes', () => {
  it('creates DATA_DIR 0700 and the SQLite file, its WAL and shared memory, and the keys 0600', async () => {
    const dataDir = join(root, 'fresh', 'data');
    const db = openDatabase({ dataDir });
    try {
      await migrateLatest(db); // writes, so the -wal and -shm files exist
      loadOrCreateKey(dataDir);
      loadOrCreateJwtKey(dataDir);
      const file = join(dataDir, SQLITE_FILE_NAME);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe(0o600);
      expect(modeOf(join(dataDir, 'secrets'))).toBe(0o700);
      expect(modeOf(join(dataDir, 'secrets', 'encryption.key'))).toBe(0o600);
      expect(modeOf(join(dataDir, 'secrets', 'jwt.key'))).toBe(0o600);
    } finally {
      await closeDatabase(db);
    }
  });

  it('narrows a world-readable install left by an older version', async () => {
    const dataDir = join(root, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const file = join(dataDir, SQLITE_FILE_NAME);
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const db = openDatabase({ dataDir });
    try {
      await migrateLatest(db);
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(`${file}-wal`)).toBe(0o600);
    } finally {
      await closeDatabase(db);
    }
  });
});
