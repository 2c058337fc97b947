// `npm run restore`: an archive back into a fresh DATA_DIR (and, for a PostgreSQL archive, pg_restore into a fresh
// database). The archive is decrypted and every file checked in a private staging folder first; only when all of
// it is authentic do files move into place, so a wrong passphrase or an altered archive leaves the target as it was.
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SECRETS_DIR } from '../crypto/keys';
import { SQLITE_FILE_NAME } from '../db/knex';
import { PG_DUMP_ENTRY, SQLITE_ENTRY, unpackBundle, type BundleManifest } from './bundle';
import { decryptStream, type Unlock } from './cipher';
import { BackupError } from './errors';
import { postgresTableCount, restorePostgres, sqliteIntegrity } from './snapshot';
import { archiveName } from './store';

export interface RestoreSettings {
  /** a local archive file (see fetchArchive for remote ones) */
  archive: string;
  unlock: Unlock;
  /** the DATA_DIR to fill: must be empty (or missing) unless `force` */
  dataDir: string;
  /** for a PostgreSQL archive: the fresh (empty) database to restore into, or a function making one */
  databaseUrl?: string | (() => Promise<string>) | undefined;
  /** restore into a non-empty DATA_DIR, moving its database and secrets aside */
  force: boolean;
  now: number;
}

export interface RestoreResult {
  manifest: BundleManifest;
  /** where the replaced files went (only with `force`), else null */
  aside: string | null;
}

/**
 * True when another connection has the database open. In WAL mode every open connection keeps a shared lock on
 * the database file, so an exclusive lock attempt with no busy wait fails exactly while the server runs.
 */
export function databaseInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new BetterSqlite3(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw err;
  } finally {
    db.close();
  }
}

/** Decrypts and unpacks `archive` into the empty folder `dir`, checking everything; returns its manifest. */
export async function openArchive(archive: string, unlock: Unlock, dir: string): Promise<BundleManifest> {
  if (!existsSync(archive)) throw new BackupError(`no archive at ${archive}`);
  const manifest = await unpackBundle(decryptStream(createReadStream(archive), unlock), dir);
  if (manifest.database === 'sqlite') {
    const integrity = sqliteIntegrity(join(dir, SQLITE_ENTRY));
    if (integrity !== 'ok') throw new BackupError(`the archived database is damaged: ${integrity}`);
  }
  return manifest;
}

export async function restoreArchive(settings: RestoreSettings): Promise<RestoreResult> {
  const { dataDir } = settings;
  const existed = existsSync(dataDir);
  const entries = existed ? readdirSync(dataDir) : [];
  if (entries.length > 0 && !settings.force) {
    throw new BackupError(
      `${dataDir} is not empty: restore into a fresh folder, or add --force to move its database and secrets aside`,
    );
  }
  if (databaseInUse(join(dataDir, SQLITE_FILE_NAME))) {
    throw new BackupError(
      `${join(dataDir, SQLITE_FILE_NAME)} is open in another process: stop the server first`,
    );
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(join(dataDir, '.restore-staging-'));
  await chmod(staging, 0o700);
  try {
    const manifest = await openArchive(settings.archive, settings.unlock, staging);
    if (manifest.database === 'postgres')
      await restoreDump(join(staging, PG_DUMP_ENTRY), settings.databaseUrl);
    const aside = await moveAside(dataDir, settings.now);
    if (manifest.database === 'sqlite')
      await rename(join(staging, SQLITE_ENTRY), join(dataDir, SQLITE_FILE_NAME));
    await mkdir(join(dataDir, SECRETS_DIR), { recursive: true, mode: 0o700 });
    await chmod(join(dataDir, SECRETS_DIR), 0o700);
    for (const entry of manifest.files.filter((f) => f.path.startsWith(`${SECRETS_DIR}/`))) {
      await rename(join(staging, entry.path), join(dataDir, entry.path));
    }
    return { manifest, aside };
  } catch (err) {
    // Nothing of a failed restore stays behind: not the staging folder, nor a DATA_DIR this call created.
    if (!existed) await rm(dataDir, { recursive: true, force: true });
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function restoreDump(dump: string, target: RestoreSettings['databaseUrl']): Promise<void> {
  if (target === undefined) {
    throw new BackupError(
      'this archive holds a PostgreSQL dump: set DATABASE_URL (or --to-database-url) to a fresh database',
    );
  }
  const databaseUrl = typeof target === 'string' ? target : await target();
  const tables = await postgresTableCount(databaseUrl);
  if (tables > 0) {
    throw new BackupError(
      `the target database already has ${tables} tables: create a fresh one (createdb) and point DATABASE_URL at it`,
    );
  }
  await restorePostgres(dump, databaseUrl);
}

/** Moves DATA_DIR's database (with its -wal/-shm) and secrets into pre-restore-<time>/; null when there were none. */
async function moveAside(dataDir: string, now: number): Promise<string | null> {
  const current = [
    SQLITE_FILE_NAME,
    `${SQLITE_FILE_NAME}-wal`,
    `${SQLITE_FILE_NAME}-shm`,
    SECRETS_DIR,
  ].filter((n) => existsSync(join(dataDir, n)));
  if (current.length === 0) return null;
  const stamp = archiveName(now).replace(/^optionpilot-|\.opbackup$/g, '');
  const aside = join(dataDir, `pre-restore-${stamp}`);
  await mkdir(aside, { mode: 0o700 });
  // The -wal and -shm files belong to the old database: left in place they would be replayed into the new one.
  for (const name of current) await rename(join(dataDir, name), join(aside, name));
  return aside;
}
