// The operator commands as real subprocesses: `node scripts/start.mjs` (config errors stop it with a message
// naming the variable; a good config serves and shuts down on SIGTERM) and `npm run create-admin`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findUserByEmail, migrateLatest, openDatabase, closeDatabase } from './db';
import { createPasswordHasher } from './auth/passwords';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-cli-'));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const baseEnv = (dataDir: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
});

describe('scripts/start.mjs', { timeout: 120_000 }, () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['JWT_TTL', 'eternity'],
    ['DATABASE_URL', 'mysql://nope'],
  ])('exits 1 naming %s when it is invalid', (name, value) => {
    const result = spawnSync(process.execPath, ['scripts/start.mjs', '--skip-web-build'], {
      cwd: ROOT,
      env: { ...baseEnv(tempDir()), [name]: value },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${name}: `);
    expect(result.stderr).toContain('Invalid configuration');
  });

  it('refuses NODE_ENV=production on the placeholder operator details, naming each variable', () => {
    const result = spawnSync(process.execPath, ['scripts/start.mjs', '--skip-web-build'], {
      cwd: ROOT,
      env: { ...baseEnv(tempDir()), NODE_ENV: 'production', SUPPORT_PHONE: '+91 22 5555 0101' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    for (const name of [
      'OPERATOR_LEGAL_NAME',
      'OPERATOR_ADDRESS',
      'OPERATOR_GSTIN',
      'SUPPORT_EMAIL',
      'SUPPORT_HOURS',
    ]) {
      expect(result.stderr).toContain(`${name}: must be set for NODE_ENV=production`);
    }
    // The one the operator did set is not named.
    expect(result.stderr).not.toContain('SUPPORT_PHONE');
  });

  it('builds, migrates, serves and shuts down gracefully on SIGTERM', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, ['scripts/start.mjs', '--skip-web-build'], {
      cwd: ROOT,
      env: { ...baseEnv(dataDir), PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
        if (match?.[1]) resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`exited ${code} before listening:\n${output}`)));
    });
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('shutting down');
  });
});

describe('scripts/create-admin.ts', { timeout: 120_000 }, () => {
  const run = (dataDir: string, ...args: string[]) =>
    spawnSync(TSX, ['scripts/create-admin.ts', ...args], {
      cwd: ROOT,
      env: baseEnv(dataDir),
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('creates an admin with a generated password printed once, then promotes without changing it', async () => {
    const dataDir = tempDir();
    const created = run(dataDir, '--email', 'Boss@Example.com');
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const password = /Password \(shown once, store it now\): (\S+)/.exec(created.stdout)?.[1] ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);

    const again = run(dataDir, '--email', 'boss@example.com');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('boss@example.com is now an admin');
    expect(again.stdout).not.toContain('Password');

    const db = openDatabase({ dataDir });
    try {
      await migrateLatest(db);
      const user = await findUserByEmail(db.knex, 'boss@example.com');
      expect(user?.is_admin).toBe(true);
      expect(await createPasswordHasher().verify(user?.password_hash ?? '', password)).toBe(true);
    } finally {
      await closeDatabase(db);
    }
  });

  it('sets a given password and refuses bad input with a non-zero exit', () => {
    const dataDir = tempDir();
    const ok = run(dataDir, '--email', 'ops@example.com', '--password', 'Chosen2026');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('with the given password');
    expect(ok.stdout).not.toContain('Chosen2026');

    const badEmail = run(dataDir, '--email', 'not-an-email');
    expect(badEmail.status).toBe(1);
    expect(badEmail.stderr).toContain('--email: email must be a valid e-mail address');
    const weak = run(dataDir, '--email', 'x@example.com', '--password', 'weakpass');
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain('--password: ');
    const missing = run(dataDir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('usage:');
    const unknownFlag = run(dataDir, '--email', 'x@example.com', '--admin');
    expect(unknownFlag.status).toBe(1);
  });
});
