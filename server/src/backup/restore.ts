// Puts a backup folder made by backupDataDir back into a DATA_DIR. It refuses unless confirmed, refuses while any
// process (the server) has the database open, verifies every file against the manifest first, and moves the
// current database and secrets aside into `pre-restore-<time>/` instead of deleting them.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import { SECRETS_DIR } from '../crypto/keys';
import { SQLITE_FILE_NAME } from '../db/knex';
import {
  BackupError,
  MANIFEST_FILE,
  backupFolderName,
  integrityOf,
  sha256File,
  type BackupManifest,
} from './backup';

const manifestSchema = z.object({
  format: z.literal(1),
  createdAt: z.number().int(),
  database: z.literal(SQLITE_FILE_NAME),
  files: z.array(
    z.object({
      // Relative paths inside the folder only: a crafted manifest must not make restore read or write elsewhere.
      path: z
        .string()
        .regex(/^(?:secrets\/)?[A-Za-z0-9._-]+$/)
        .refine((p) => !p.split('/').includes('..')),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
});

/** The folder's manifest, after checking each listed file's checksum and the database's integrity. */
export function verifyBackup(folder: string): BackupManifest {
  const file = join(folder, MANIFEST_FILE);
  if (!existsSync(file)) throw new BackupError(`${folder} is not a backup folder (no ${MANIFEST_FILE})`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new BackupError(`${file} is not valid JSON`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw new BackupError(`${file} is not a backup manifest: ${parsed.error.message}`);
  const manifest = parsed.data;
  if (!manifest.files.some((f) => f.path === SQLITE_FILE_NAME)) {
    throw new BackupError(`${file} lists no database`);
  }
  for (const entry of manifest.files) {
    const path = join(folder, entry.path);
    if (!existsSync(path)) throw new BackupError(`${path} is missing`);
    if (sha256File(path) !== entry.sha256) throw new BackupError(`${path} does not match its checksum`);
  }
  const integrity = integrityOf(join(folder, SQLITE_FILE_NAME));
  if (integrity !== 'ok') throw new BackupError(`the backed-up database is damaged: ${integrity}`);
  return manifest;
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

export interface RestoreOptions {
  folder: string;
  dataDir: string;
  /** the operator said yes (`--yes`): restoring replaces the live database */
  confirmed: boolean;
  now: number;
}

/** Restores `folder` into `dataDir`; returns where the replaced files were moved (null when there were none). */
export function restoreDataDir(options: RestoreOptions): string | null {
  const { folder, dataDir } = options;
  const manifest = verifyBackup(folder);
  if (!options.confirmed) {
    throw new BackupError(
      `restoring replaces the database in ${dataDir} with the copy of ${new Date(manifest.createdAt).toISOString()}; ` +
        'stop the server and run again with --yes',
    );
  }
  const live = join(dataDir, SQLITE_FILE_NAME);
  if (databaseInUse(live)) {
    throw new BackupError(
      `${live} is open in another process: stop the server first (systemctl stop optionpilot)`,
    );
  }

  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const current = [
    SQLITE_FILE_NAME,
    `${SQLITE_FILE_NAME}-wal`,
    `${SQLITE_FILE_NAME}-shm`,
    SECRETS_DIR,
  ].filter((name) => existsSync(join(dataDir, name)));
  let aside: string | null = null;
  if (current.length > 0) {
    aside = join(dataDir, `pre-restore-${backupFolderName(options.now).replace('optionpilot-', '')}`);
    mkdirSync(aside, { mode: 0o700 });
    chmodSync(aside, 0o700);
    // The -wal and -shm files belong to the old database: left in place they would be replayed into the new one.
    for (const name of current) renameSync(join(dataDir, name), join(aside, name));
  }
  for (const entry of manifest.files) {
    const target = join(dataDir, entry.path);
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    chmodSync(dirname(target), 0o700);
    copyFileSync(join(folder, entry.path), target);
    chmodSync(target, 0o600);
  }
  return aside;
}
