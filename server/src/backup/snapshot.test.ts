import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseUrlFor, dumpPostgres } from './snapshot';

const dirs: string[] = [];
const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in pg_dump first on PATH that records its arguments and PGPASSWORD, then fails or succeeds. */
function fakePgDump(exitCode: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-pgdump-'));
  dirs.push(dir);
  const script = join(dir, 'pg_dump');
  writeFileSync(
    script,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/args"\nprintf '%s' "$PGPASSWORD" > "${dir}/password"\n` +
      `echo 'pg_dump: error: connection refused' >&2\nexit ${exitCode}\n`,
  );
  chmodSync(script, 0o755);
  process.env.PATH = `${dir}:${savedPath ?? ''}`;
  return dir;
}

describe('dumpPostgres', () => {
  it('passes the password in PGPASSWORD, never on the command line', async () => {
    const dir = fakePgDump(0);
    await dumpPostgres(
      'postgres://op:s3cr%40t@db.example:5432/optionpilot?sslmode=require',
      join(dir, 'out'),
    );
    const args = readFileSync(join(dir, 'args'), 'utf8');
    expect(args).not.toContain('s3cr');
    expect(args).toContain('--dbname=postgres://op@db.example:5432/optionpilot?sslmode=require');
    expect(args).toContain('--format=custom');
    expect(readFileSync(join(dir, 'password'), 'utf8')).toBe('s3cr@t');
  });

  it("reports pg_dump's own error and exit code", async () => {
    const dir = fakePgDump(1);
    await expect(dumpPostgres('postgres://op@127.0.0.1:1/x', join(dir, 'out'))).rejects.toThrow(
      'pg_dump failed (exit 1): pg_dump: error: connection refused',
    );
  });
});

describe('databaseUrlFor', () => {
  it('keeps server and credentials, and swaps the database name', () => {
    expect(databaseUrlFor('postgres://u:p@h:5432/main?sslmode=require', 'optionpilot_verify_1')).toBe(
      'postgres://u:p@h:5432/optionpilot_verify_1?sslmode=require',
    );
  });
});
