// `npm run set-password` as a real subprocess on a real SQLite DATA_DIR: the operator's way to reset a password
// when no mail transport is configured (README, "Deploying on a VPS").
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../server/src/auth/passwords';
import {
  closeDatabase,
  createSession,
  findActiveSession,
  findUserByEmail,
  migrateLatest,
  openDatabase,
} from '../../server/src/db';
import { createUser } from '../../server/src/services/users';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'optionpilot-set-password-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/set-password.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, NODE_ENV: 'production' },
    encoding: 'utf8',
    timeout: 60_000,
  });

async function withDb<T>(work: (db: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const db = openDatabase({ dataDir });
  try {
    await migrateLatest(db);
    return await work(db);
  } finally {
    await closeDatabase(db);
  }
}

describe('npm run set-password', { timeout: 120_000 }, () => {
  it('sets a generated password printed once and signs the account out everywhere', async () => {
    const now = Date.now();
    await withDb(async (db) => {
      const user = await createUser({
        db: db.knex,
        now,
        user: { email: 'locked@example.com', firstName: 'L', lastName: 'O', passwordHash: 'x' },
      });
      await createSession(
        db.knex,
        { id: 'live-1', user_id: user.id, expires_at: now + 3_600_000, ip: '1.2.3.4', user_agent: null },
        now,
      );
    });

    const result = run('--email', 'Locked@Example.com');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('1 session(s) signed out');
    const password = /New password \(shown once, pass it on securely\): (\S+)/.exec(result.stdout)?.[1] ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);

    await withDb(async (db) => {
      const user = await findUserByEmail(db.knex, 'locked@example.com');
      expect(await createPasswordHasher().verify(user?.password_hash ?? '', password)).toBe(true);
      expect(await findActiveSession(db.knex, 'live-1', Date.now())).toBeFalsy();
    });
  });

  it('refuses an unknown account, a weak password and a missing e-mail with a non-zero exit', () => {
    const unknown = run('--email', 'ghost@example.com');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No user with this e-mail address.');
    const weak = run('--email', 'locked@example.com', '--password', 'weakpass');
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain('--password: ');
    const missing = run();
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('usage:');
  });
});
