import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SQLITE_FILE_NAME } from '../db/knex';
import { backgroundPairWriter, counts, seedPairs } from '../testing/sqlitePairs';
import { BackupError, MANIFEST_FILE, backupDataDir, backupFolderName, integrityOf } from './backup';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-backup-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('backupFolderName', () => {
  it('is a sortable UTC stamp', () => {
    expect(backupFolderName(Date.parse('2026-11-23T21:45:07.123Z'))).toBe('optionpilot-20261123T214507Z');
  });
});

describe('backupDataDir', () => {
  it('copies the database consistently while another connection keeps writing, and the secrets, owner-only', async () => {
    const dataDir = tempDir();
    const destination = join(tempDir(), 'backups');
    mkdirSync(join(dataDir, 'secrets'), { mode: 0o700 });
    writeFileSync(join(dataDir, 'secrets/encryption.key'), 'a2V5\n', { mode: 0o600 });
    seedPairs(dataDir, 4000).close();
    const writer = backgroundPairWriter(join(dataDir, SQLITE_FILE_NAME));
    await vi.waitFor(() => expect(writer.written()).toBeGreaterThan(10));
    const before = writer.written();
    const folder = await backupDataDir({ dataDir, destination, now: Date.parse('2026-11-23T21:45:00Z') });
    const during = writer.written() - before;
    await writer.stop();

    expect(folder).toBe(join(destination, 'optionpilot-20261123T214500Z'));
    // The writer really ran during the copy, and the copy holds whole transactions only.
    expect(during).toBeGreaterThan(0);
    const copied = counts(join(folder, SQLITE_FILE_NAME));
    expect(copied.a).toBe(copied.b);
    expect(copied.a).toBeGreaterThanOrEqual(4000);
    expect(integrityOf(join(folder, SQLITE_FILE_NAME))).toBe('ok');
    expect(readFileSync(join(folder, 'secrets/encryption.key'), 'utf8')).toBe('a2V5\n');

    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, 'secrets')).mode & 0o777).toBe(0o700);
    for (const file of [SQLITE_FILE_NAME, 'secrets/encryption.key', MANIFEST_FILE]) {
      expect(statSync(join(folder, file)).mode & 0o777).toBe(0o600);
    }
    const manifest = JSON.parse(readFileSync(join(folder, MANIFEST_FILE), 'utf8')) as {
      files: { path: string }[];
    };
    expect(manifest.files.map((f) => f.path)).toEqual([SQLITE_FILE_NAME, 'secrets/encryption.key']);
  });

  it('refuses a DATA_DIR without a database and never overwrites an earlier backup', async () => {
    const destination = tempDir();
    await expect(backupDataDir({ dataDir: tempDir(), destination, now: 0 })).rejects.toThrow(BackupError);
    const dataDir = tempDir();
    seedPairs(dataDir, 1).close();
    await backupDataDir({ dataDir, destination, now: 0 });
    await expect(backupDataDir({ dataDir, destination, now: 0 })).rejects.toThrow(/already exists/);
  });
});
