import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../db/knex';
import { counts, pairWriter, seedPairs } from '../testing/sqlitePairs';
import { BackupError, MANIFEST_FILE, backupDataDir } from './backup';
import { databaseInUse, restoreDataDir, verifyBackup } from './restore';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-restore-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NOW = Date.parse('2026-11-24T01:00:00Z');

/** A DATA_DIR with 10 pairs and a key, and a backup of it; the source connection is closed. */
async function backedUp(): Promise<{ dataDir: string; folder: string }> {
  const dataDir = tempDir();
  mkdirSync(join(dataDir, 'secrets'), { mode: 0o700 });
  writeFileSync(join(dataDir, 'secrets/encryption.key'), 'b2xk\n', { mode: 0o600 });
  seedPairs(dataDir, 10).close();
  const folder = await backupDataDir({ dataDir, destination: tempDir(), now: NOW - 3_600_000 });
  return { dataDir, folder };
}

describe('restoreDataDir', () => {
  it('puts the copy back, keeping the replaced database, its WAL and secrets aside', async () => {
    const { dataDir, folder } = await backedUp();
    // Later changes that the restore must undo, left partly in the WAL.
    const db = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME));
    db.pragma('wal_autocheckpoint = 0');
    const pair = pairWriter(db);
    for (let i = 0; i < 5; i += 1) pair();
    writeFileSync(join(dataDir, 'secrets/encryption.key'), 'bmV3\n');
    // A crash leaves the -wal and -shm files behind; simulate that by not checkpointing, then closing.
    db.close();

    const aside = restoreDataDir({ folder, dataDir, confirmed: true, now: NOW });
    expect(counts(join(dataDir, SQLITE_FILE_NAME))).toEqual({ a: 10, b: 10 });
    expect(readFileSync(join(dataDir, 'secrets/encryption.key'), 'utf8')).toBe('b2xk\n');
    expect(statSync(join(dataDir, SQLITE_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'secrets')).mode & 0o777).toBe(0o700);
    expect(aside).toBe(join(dataDir, 'pre-restore-20261124T010000Z'));
    expect(counts(join(aside!, SQLITE_FILE_NAME))).toEqual({ a: 15, b: 15 });
    expect(readFileSync(join(aside!, 'secrets/encryption.key'), 'utf8')).toBe('bmV3\n');
  });

  it('restores into an empty DATA_DIR', async () => {
    const { folder } = await backedUp();
    const fresh = join(tempDir(), 'data');
    expect(restoreDataDir({ folder, dataDir: fresh, confirmed: true, now: NOW })).toBeNull();
    expect(counts(join(fresh, SQLITE_FILE_NAME))).toEqual({ a: 10, b: 10 });
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });

  it('refuses without confirmation and changes nothing', async () => {
    const { dataDir, folder } = await backedUp();
    const before = readFileSync(join(dataDir, SQLITE_FILE_NAME));
    expect(() => restoreDataDir({ folder, dataDir, confirmed: false, now: NOW })).toThrow(/--yes/);
    expect(readFileSync(join(dataDir, SQLITE_FILE_NAME)).equals(before)).toBe(true);
  });

  it('refuses while another connection (the server) has the database open', async () => {
    const { dataDir, folder } = await backedUp();
    const server = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME));
    server.pragma('journal_mode = WAL');
    server.prepare('SELECT count(*) FROM a').get();
    try {
      expect(databaseInUse(join(dataDir, SQLITE_FILE_NAME))).toBe(true);
      expect(() => restoreDataDir({ folder, dataDir, confirmed: true, now: NOW })).toThrow(/stop the server/);
      expect(existsSync(join(dataDir, 'pre-restore-20261124T010000Z'))).toBe(false);
    } finally {
      server.close();
    }
    expect(databaseInUse(join(dataDir, SQLITE_FILE_NAME))).toBe(false);
  });
});

describe('verifyBackup', () => {
  it('rejects a folder whose files do not match the manifest', async () => {
    const { folder } = await backedUp();
    writeFileSync(join(folder, 'secrets/encryption.key'), 'dGFtcGVyZWQ=\n');
    expect(() => verifyBackup(folder)).toThrow(/checksum/);
  });

  it('rejects a manifest pointing outside its folder, and a folder without one', async () => {
    const { folder } = await backedUp();
    const manifest = JSON.parse(readFileSync(join(folder, MANIFEST_FILE), 'utf8')) as {
      files: { path: string; sha256: string }[];
    };
    manifest.files.push({ path: '../../etc/passwd', sha256: '0'.repeat(64) });
    writeFileSync(join(folder, MANIFEST_FILE), JSON.stringify(manifest));
    expect(() => verifyBackup(folder)).toThrow(BackupError);
    expect(() => verifyBackup(tempDir())).toThrow(/not a backup folder/);
  });
});
