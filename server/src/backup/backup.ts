// Online backup of a SQLite DATA_DIR: the database through SQLite's VACUUM INTO (a consistent snapshot even while
// the server writes, WAL included) and the generated secrets, into a new dated folder readable by the owner only.
// Without secrets/encryption.key the stored broker credentials cannot be decrypted, so the two travel together.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SECRETS_DIR } from '../crypto/keys';
import { SQLITE_FILE_NAME } from '../db/knex';

export const MANIFEST_FILE = 'manifest.json';
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export class BackupError extends Error {
  override readonly name = 'BackupError';
}

/** What a backup folder holds: each file's path relative to the folder and its SHA-256, to verify a restore. */
export interface BackupManifest {
  format: 1;
  /** epoch ms the copy was taken */
  createdAt: number;
  database: string;
  files: { path: string; sha256: string }[];
}

/** `optionpilot-20261123T214500Z`: sorts by time, and contains no characters a shell or a file system minds. */
export function backupFolderName(at: number): string {
  const iso = new Date(at).toISOString(); // 2026-11-23T21:45:00.123Z
  return `optionpilot-${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;
}

export function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** `PRAGMA integrity_check` of a database file, opened read-only; 'ok' when it is sound. */
export function integrityOf(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

export interface BackupOptions {
  dataDir: string;
  /** parent folder of the dated backup folders */
  destination: string;
  now: number;
}

/** Copies the database and the secrets into `<destination>/<backupFolderName(now)>`; returns that folder. */
export async function backupDataDir(options: BackupOptions): Promise<string> {
  const source = join(options.dataDir, SQLITE_FILE_NAME);
  if (!existsSync(source)) throw new BackupError(`no database at ${source}: is DATA_DIR right?`);
  mkdirSync(options.destination, { recursive: true, mode: DIR_MODE });
  const folder = join(options.destination, backupFolderName(options.now));
  if (existsSync(folder)) throw new BackupError(`${folder} already exists`);
  mkdirSync(folder, { mode: DIR_MODE });
  // mkdir's mode is narrowed by the umask but an explicit chmod is not: the folder holds keys.
  chmodSync(folder, DIR_MODE);

  const target = join(folder, SQLITE_FILE_NAME);
  const db = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
  try {
    // VACUUM INTO writes the copy inside one read transaction: a single committed state, WAL included, and in
    // WAL mode the server's writers go on meanwhile. (The incremental backup API restarts whenever another
    // connection writes between two of its steps, so against a busy server it may never finish.)
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  chmodSync(target, FILE_MODE);
  const integrity = integrityOf(target);
  if (integrity !== 'ok') throw new BackupError(`the copy failed its integrity check: ${integrity}`);

  const files = [SQLITE_FILE_NAME];
  const secrets = join(options.dataDir, SECRETS_DIR);
  if (existsSync(secrets)) {
    mkdirSync(join(folder, SECRETS_DIR), { mode: DIR_MODE });
    chmodSync(join(folder, SECRETS_DIR), DIR_MODE);
    for (const name of readdirSync(secrets).sort()) {
      const path = join(SECRETS_DIR, name);
      copyFileSync(join(options.dataDir, path), join(folder, path));
      chmodSync(join(folder, path), FILE_MODE);
      files.push(path);
    }
  }
  const manifest: BackupManifest = {
    format: 1,
    createdAt: options.now,
    database: SQLITE_FILE_NAME,
    files: files.map((path) => ({ path, sha256: sha256File(join(folder, path)) })),
  };
  writeFileSync(join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: FILE_MODE });
  return folder;
}
