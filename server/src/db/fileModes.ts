// DATA_DIR holds the SQLite database (every user's data, password hashes, sealed broker secrets) and the generated
// keys: nobody but the server's own user may read it. The directory is made 0700 and the database files 0600 —
// also when an older install created them world-readable (0755 / 0644 under the usual umask).
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Narrows `path` to `mode` when group or others have any access; a path owned by someone else is left alone. */
function narrow(path: string, mode: number): void {
  if ((statSync(path).mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode);
  } catch (err) {
    // Not ours to change (e.g. a directory an operator pre-created as root); the operator's choice stands.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}

/** Creates `dataDir` (0700) or narrows an existing one. */
export function securePrivateDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrow(dataDir, PRIVATE_DIR_MODE);
}

/**
 * Creates the SQLite file 0600 before SQLite opens it (SQLite gives its -wal and -shm files the database file's
 * mode), and narrows the file and any existing -wal/-shm of an older install.
 */
export function securePrivateDatabaseFile(filename: string): void {
  closeSync(openSync(filename, 'a', PRIVATE_FILE_MODE));
  for (const path of [filename, `${filename}-wal`, `${filename}-shm`, `${filename}-journal`]) {
    if (existsSync(path)) narrow(path, PRIVATE_FILE_MODE);
  }
}
