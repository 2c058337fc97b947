import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const KEY_BYTES = 32;
export const SECRETS_DIR = 'secrets';
export const ENCRYPTION_KEY_FILE = 'encryption.key';
export const JWT_KEY_FILE = 'jwt.key';

export class KeyError extends Error {
  override readonly name = 'KeyError';
}

/** Decodes a base64 key and checks it is exactly 32 bytes; `source` names where it came from in the error. */
export function decodeKey(value: string, source: string): Buffer {
  const trimmed = value.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || trimmed.length % 4 !== 0) {
    throw new KeyError(`${source} must be base64 (e.g. \`openssl rand -base64 32\`)`);
  }
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES)
    throw new KeyError(`${source} must decode to ${KEY_BYTES} bytes, got ${key.length}`);
  return key;
}

export interface LoadKeyOptions {
  /** file name under `<dataDir>/secrets/`; default `encryption.key` */
  fileName?: string;
  /** name of the environment variable `envValue` came from, for error messages; default `ENCRYPTION_KEY` */
  envName?: string;
}

/**
 * A 32-byte key: from `envValue` (base64) when given, otherwise read from `<dataDir>/secrets/<fileName>`, which is
 * generated (random, base64, mode 0600, directory 0700) on first use and reused afterwards. Losing the encryption
 * key makes stored broker secrets unreadable, so a malformed file is an error, never silently replaced.
 */
export function loadOrCreateKey(dataDir: string, envValue?: string, options: LoadKeyOptions = {}): Buffer {
  const fileName = options.fileName ?? ENCRYPTION_KEY_FILE;
  if (envValue !== undefined && envValue.trim() !== '') {
    return decodeKey(envValue, options.envName ?? 'ENCRYPTION_KEY');
  }
  const dir = join(dataDir, SECRETS_DIR);
  const file = join(dir, fileName);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(KEY_BYTES).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // The umask may have narrowed the mode further, never widened it; an operator-copied file may be wider.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return decodeKey(readFileSync(file, 'utf8'), file);
}

/** The JWT signing key: `JWT_SECRET` when set, otherwise `<dataDir>/secrets/jwt.key` (created 0600). */
export function loadOrCreateJwtKey(dataDir: string, envValue?: string): Buffer {
  return loadOrCreateKey(dataDir, envValue, { fileName: JWT_KEY_FILE, envName: 'JWT_SECRET' });
}
