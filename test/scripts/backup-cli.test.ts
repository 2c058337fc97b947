// `npm run backup` and `npm run restore` as the operator runs them (tsx, DATA_DIR from the environment), while
// another process keeps writing to the database the way the server does.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../server/src/db';
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

function run(script: string, dataDir: string, ...args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
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

describe('npm run backup / npm run restore', () => {
  it('backs up during writes and restores a consistent database, refusing while it is in use or unconfirmed', async () => {
    const dataDir = tempDir();
    mkdirSync(join(dataDir, 'secrets'), { mode: 0o700 });
    writeFileSync(join(dataDir, 'secrets/jwt.key'), 'and0\n', { mode: 0o600 });
    seedPairs(dataDir, 3000).close();
    const writer = await startWriter(dataDir);

    const backup = await run('scripts/backup.ts', dataDir, '--to', join(dataDir, 'copies'));
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const folder = backup.stdout.trim();
    expect(folder).toMatch(/copies\/optionpilot-\d{8}T\d{6}Z$/);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const copied = counts(join(folder, SQLITE_FILE_NAME));
    expect(copied.a).toBe(copied.b);
    expect(copied.a).toBeGreaterThan(3000); // the writer had committed more pairs before the copy

    const busy = await run('scripts/restore.ts', dataDir, folder, '--yes');
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/stop the server/);

    writer.kill('SIGKILL');
    await new Promise((done) => writer.once('exit', done));
    const unconfirmed = await run('scripts/restore.ts', dataDir, folder);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/--yes/);
    expect(counts(join(dataDir, SQLITE_FILE_NAME)).a).toBeGreaterThan(copied.a);

    const restored = await run('scripts/restore.ts', dataDir, folder, '--yes');
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(counts(join(dataDir, SQLITE_FILE_NAME))).toEqual(copied);
    expect(readFileSync(join(dataDir, 'secrets/jwt.key'), 'utf8')).toBe('and0\n');
  });

  it('points PostgreSQL operators at pg_dump', async () => {
    const dataDir = tempDir();
    const child = await new Promise<Run>((done, fail) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/backup.ts'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          DATA_DIR: dataDir,
          DATABASE_URL: 'postgres://op@127.0.0.1:1/op',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      p.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      p.on('error', fail);
      p.on('close', (code) => done({ code, stdout: '', stderr }));
    });
    expect(child.code).toBe(1);
    expect(child.stderr).toMatch(/pg_dump/);
  });
});
