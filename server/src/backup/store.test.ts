import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { archiveName, openStore, prune } from './store';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const S3 = { endpoint: 'http://127.0.0.1:1', region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 'b' };

describe('archiveName', () => {
  it('is a sortable UTC stamp', () => {
    expect(archiveName(Date.parse('2026-11-23T21:45:07.123Z'))).toBe('optionpilot-20261123T214507Z.opbackup');
  });
});

describe('openStore', () => {
  it('names s3 locations with their prefix, and refuses malformed ones or missing settings', () => {
    expect(openStore('s3://op-backups/daily/', S3).locate('x.opbackup')).toBe(
      's3://op-backups/daily/x.opbackup',
    );
    expect(openStore('s3://op-backups', S3).locate('x.opbackup')).toBe('s3://op-backups/x.opbackup');
    expect(() => openStore('s3://Bad_Bucket/x', S3)).toThrow(/expected s3:\/\/bucket/);
    expect(() => openStore('s3://op-backups/x', undefined)).toThrow(/BACKUP_S3_ENDPOINT/);
  });
});

describe('folder store and prune', () => {
  it('keeps the newest N archives, touches no other file, and 0 keeps all', async () => {
    const dir = tempDir();
    const day = (d: number) => archiveName(Date.parse('2026-11-20T02:00:00Z') + d * 86_400_000);
    for (const d of [3, 0, 2, 1]) writeFileSync(join(dir, day(d)), 'x');
    writeFileSync(join(dir, 'optionpilot-notes.txt'), 'keep me');
    const store = openStore(dir, undefined);
    expect(await store.list()).toEqual([day(0), day(1), day(2), day(3)]);
    expect(await prune(store, 0)).toEqual([]);
    expect(await prune(store, 2)).toEqual([day(0), day(1)]);
    expect(readdirSync(dir).sort()).toEqual(['optionpilot-notes.txt', day(2), day(3)].sort());
  });

  it('refuses to touch a file whose name is not an archive name', async () => {
    const store = openStore(tempDir(), undefined);
    await expect(store.remove('../../etc/passwd')).rejects.toThrow(/not a backup archive name/);
  });
});
