// `npm run backup` and `npm run restore` as the operator runs them (tsx, settings from the environment and flags),
// while another process keeps writing to the database the way the server does.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../server/src/db';
import { ACCESS_TOKEN, restoredToken, seedTrader } from '../../server/src/testing/backupTrader';
import { startFakeS3 } from '../fakes/s3/server';
import { counts, seedPairs } from '../../server/src/testing/sqlitePairs';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-backup-cli-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A separate process writing pairs in transactions as fast as it can until killed; resolves once it wrote. */
function startWriter(dataDir: string): Promise<ChildProcess> {
  const code = `
    const Db = require('better-sqlite3');
    const db = new Db(${JSON.stringify(join(dataDir, SQLITE_FILE_NAME))}, { timeout: 5000 });
    db.pragma('journal_mode = WAL');
    const a = db.prepare('INSERT INTO a (pad) VALUES (randomblob(512))');
    const b = db.prepare('INSERT INTO b (pad) VALUES (randomblob(512))');
    const pair = db.transaction(() => { a.run(); b.run(); });
    let n = 0;
    const loop = () => { pair(); n += 1; if (n === 50) process.stdout.write('writing\\n'); setTimeout(loop, 1); };
    loop();`;
  const child = spawn(process.execPath, ['-e', code], {
    cwd: join(ROOT, 'server'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((done, fail) => {
    child.stdout?.once('data', () => done(child));
    child.once('exit', (c) => fail(new Error(`the writer exited with ${c}`)));
  });
}

const PASSPHRASE = 'the operator keeps this in a password manager';

describe('npm run backup / npm run restore', () => {
  it('backs up during writes into one encrypted archive, restores it consistently, and passes the drill', async () => {
    const dataDir = tempDir();
    await seedTrader(dataDir);
    seedPairs(dataDir, 2000).close();
    const writer = await startWriter(dataDir);
    const destination = join(tempDir(), 'offsite');
    const env = { DATA_DIR: dataDir, BACKUP_PASSPHRASE: PASSPHRASE };

    const backup = await run('scripts/backup.ts', env, '--to', destination, '--keep', '3');
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const archive = /^(\S+\.opbackup) \(\d+ bytes, sha256 [0-9a-f]{64}\)$/.exec(
      backup.stdout.trim(),
    )?.[1] as string;
    expect(archive).toMatch(/offsite\/optionpilot-\d{8}T\d{6}Z\.opbackup$/);
    expect(statSync(archive).mode & 0o077).toBe(0);
    const state = JSON.parse(readFileSync(join(dataDir, 'backups-state.json'), 'utf8')) as {
      destination: string;
    };
    expect(state.destination).toBe(archive);
    writer.kill('SIGKILL');

    const passphraseFile = join(tempDir(), 'passphrase');
    writeFileSync(passphraseFile, `${PASSPHRASE}\n`, { mode: 0o600 });
    const fresh = join(tempDir(), 'restored');
    const restored = await run(
      'scripts/restore.ts',
      { DATA_DIR: fresh },
      archive,
      '--to-data-dir',
      fresh,
      '--passphrase-file',
      passphraseFile,
    );
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const copied = counts(join(fresh, SQLITE_FILE_NAME));
    expect(copied.a).toBe(copied.b);
    expect(copied.a).toBeGreaterThan(2000); // the writer had committed more pairs before the snapshot
    expect(await restoredToken(fresh)).toBe(ACCESS_TOKEN);

    // The drill without naming an archive: the newest at BACKUP_DIR.
    const drill = await run('scripts/restore.ts', { ...env, BACKUP_DIR: destination }, '--verify');
    expect(drill.stdout).toMatch(/^OK {3}secrets: decrypted the stored broker credentials of 1 account/m);
    expect(drill.stdout.trim().split('\n').at(-1)).toBe('verify: OK');
    expect(drill.code).toBe(0);
  });

  it('fails cleanly: no destination, no passphrase, a wrong passphrase, an altered archive', async () => {
    const dataDir = tempDir();
    await seedTrader(dataDir);
    const noDestination = await run('scripts/backup.ts', {
      DATA_DIR: dataDir,
      BACKUP_PASSPHRASE: PASSPHRASE,
    });
    expect(noDestination.code).toBe(1);
    expect(noDestination.stderr).toMatch(/^backup: say where the archive goes: --to/);
    const destination = tempDir();
    const noPassphrase = await run('scripts/backup.ts', { DATA_DIR: dataDir }, '--to', destination);
    expect(noPassphrase.code).toBe(1);
    expect(noPassphrase.stderr).toMatch(/BACKUP_PASSPHRASE/);
    expect(readdirSync(destination)).toEqual([]);

    const inside = await run('scripts/backup.ts', {
      DATA_DIR: dataDir,
      BACKUP_PASSPHRASE: PASSPHRASE,
      BACKUP_DIR: join(dataDir, 'backups'),
    });
    expect(inside.code).toBe(0);
    expect(inside.stderr).toMatch(/WARNING: .* is inside DATA_DIR/);
    const archive = join(dataDir, 'backups', readdirSync(join(dataDir, 'backups'))[0] as string);

    const target = join(tempDir(), 'restored');
    const wrong = await run(
      'scripts/restore.ts',
      { DATA_DIR: target, BACKUP_PASSPHRASE: 'a different passphrase' },
      archive,
      '--to-data-dir',
      target,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      'restore: wrong passphrase: the archive could not be decrypted (nothing was written)\n',
    );
    expect(existsSync(target)).toBe(false);

    const bytes = readFileSync(archive);
    bytes[bytes.length - 20] = (bytes[bytes.length - 20] as number) ^ 0x01;
    writeFileSync(archive, bytes);
    const drill = await run(
      'scripts/restore.ts',
      { DATA_DIR: target, BACKUP_PASSPHRASE: PASSPHRASE },
      '--verify',
      archive,
    );
    expect(drill.code).toBe(1);
    expect(drill.stdout).toMatch(/^FAIL archive: the archive is damaged, truncated or was altered/m);
    expect(drill.stdout.trim().split('\n').at(-1)).toBe('verify: FAIL');
  });

  it('backs up to an S3-compatible bucket from the environment, and drills the newest archive there', async () => {
    const s3 = await startFakeS3();
    try {
      const dataDir = tempDir();
      await seedTrader(dataDir);
      const env = {
        DATA_DIR: dataDir,
        BACKUP_PASSPHRASE: PASSPHRASE,
        BACKUP_DIR: 's3://backups/optionpilot',
        BACKUP_S3_ENDPOINT: s3.url,
        BACKUP_S3_ACCESS_KEY_ID: s3.accessKeyId,
        BACKUP_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      };
      const backup = await run('scripts/backup.ts', env);
      expect(backup.stderr).toBe('');
      expect(backup.stdout).toMatch(/^s3:\/\/backups\/optionpilot\/optionpilot-\d{8}T\d{6}Z\.opbackup \(/);
      expect([...(s3.objects.get('backups')?.keys() ?? [])]).toEqual([
        expect.stringMatching(/^optionpilot\/optionpilot-\d{8}T\d{6}Z\.opbackup$/),
      ]);
      const drill = await run('scripts/restore.ts', env, '--verify');
      expect(drill.stdout.trim().split('\n').at(-1)).toBe('verify: OK');
      expect(drill.code).toBe(0);
    } finally {
      await s3.close();
    }
  });
});
