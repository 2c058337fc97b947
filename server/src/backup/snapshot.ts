// Taking the database out of, and putting it back into, its home: a consistent SQLite snapshot, and pg_dump /
// pg_restore for PostgreSQL. The PostgreSQL password travels in PGPASSWORD, not on the command line, where any
// local user could read it in the process list.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { SECRETS_DIR } from '../crypto/keys';
import { BackupError } from './errors';

/**
 * Copies a live SQLite database into `target` with VACUUM INTO: one read transaction, so a single committed state
 * (WAL included) while the server goes on writing. (The incremental backup() API restarts whenever another
 * connection writes between two of its steps, so against a busy server it may never finish.)
 */
export function snapshotSqlite(source: string, target: string): void {
  if (!existsSync(source)) throw new BackupError(`no database at ${source}: is DATA_DIR right?`);
  const db = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  const integrity = sqliteIntegrity(target);
  if (integrity !== 'ok') throw new BackupError(`the snapshot failed its integrity check: ${integrity}`);
}

/** `PRAGMA integrity_check` of a database file, opened read-only; 'ok' when it is sound. */
export function sqliteIntegrity(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** Paths (relative to `dataDir`) of the files in DATA_DIR/secrets: the keys a restore needs. */
export function secretFiles(dataDir: string): string[] {
  const dir = join(dataDir, SECRETS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort()
    .map((name) => `${SECRETS_DIR}/${name}`);
}

/** The URL without its password, and the password for PGPASSWORD. */
function splitPassword(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password === '' ? {} : { PGPASSWORD: password } };
}

/** The URL of database `name` on the same server and with the same credentials as `databaseUrl`. */
export function databaseUrlFor(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

function runTool(tool: string, args: string[], databaseUrl: string): Promise<void> {
  const { url, env } = splitPassword(databaseUrl);
  return new Promise((done, fail) => {
    const child = spawn(tool, [...args, `--dbname=${url}`], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < 4000) stderr += text;
    });
    child.on('error', (err: NodeJS.ErrnoException) =>
      fail(
        new BackupError(
          err.code === 'ENOENT'
            ? `${tool} not found: install the PostgreSQL client tools of the server's major version (apt-get install postgresql-client)`
            : `${tool} could not start: ${err.message}`,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0 ? done() : fail(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/** `pg_dump` in custom format (compressed, restorable table by table) into `target`. */
export function dumpPostgres(databaseUrl: string, target: string): Promise<void> {
  return runTool(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${target}`],
    databaseUrl,
  );
}

/** `pg_restore` of a custom-format dump into the (empty) database at `databaseUrl`, all or nothing. */
export function restorePostgres(dump: string, databaseUrl: string): Promise<void> {
  return runTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dump],
    databaseUrl,
  );
}

/** Runs `work` with a pg client on `databaseUrl`, closing it afterwards. */
export async function withPgClient<T>(
  databaseUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Number of tables outside the system schemas: a restore target must have none. */
export function postgresTableCount(databaseUrl: string): Promise<number> {
  return withPgClient(databaseUrl, async (client) => {
    const result = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return Number(result.rows[0]?.n ?? 0);
  });
}

/** Creates, or drops, database `name` through a connection to `databaseUrl` (same server). */
export async function createPostgresDatabase(databaseUrl: string, name: string): Promise<void> {
  await withPgClient(databaseUrl, (client) => client.query(`create database "${name.replace(/"/g, '""')}"`));
}

export async function dropPostgresDatabase(databaseUrl: string, name: string): Promise<void> {
  await withPgClient(databaseUrl, (client) =>
    client.query(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`),
  );
}
