import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBackupEnv, passphraseFrom, s3From } from './env';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('backup settings', () => {
  it('takes the passphrase file over the variable, its first line only, and refuses a short one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'optionpilot-env-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'p'), 'from the file, long enough\nsecond line\n');
    const env = loadBackupEnv({ BACKUP_PASSPHRASE: 'from the variable, long enough' });
    expect(passphraseFrom(join(dir, 'p'), env)).toBe('from the file, long enough');
    expect(passphraseFrom(undefined, env)).toBe('from the variable, long enough');
    expect(passphraseFrom(undefined, loadBackupEnv({}))).toBeNull();
    expect(() => passphraseFrom(undefined, loadBackupEnv({ BACKUP_PASSPHRASE: 'short' }))).toThrow(
      /at least 12/,
    );
    expect(() => passphraseFrom(join(dir, 'missing'), env)).toThrow(/cannot read the passphrase file/);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadBackupEnv({ BACKUP_KEEP: 'many' })).toThrow(/^BACKUP_KEEP must be a whole number/);
    expect(() => loadBackupEnv({ BACKUP_S3_ENDPOINT: 'ftp://x' })).toThrow(/^BACKUP_S3_ENDPOINT/);
  });

  it('has S3 settings only when the endpoint and both keys are set', () => {
    const full = {
      BACKUP_S3_ENDPOINT: 'https://s3.example.com',
      BACKUP_S3_ACCESS_KEY_ID: 'id',
      BACKUP_S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(s3From(loadBackupEnv(full))).toEqual({
      endpoint: 'https://s3.example.com',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    expect(s3From(loadBackupEnv({ ...full, BACKUP_S3_SECRET_ACCESS_KEY: '' }))).toBeUndefined();
  });
});
