import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeKey, KeyError, loadOrCreateJwtKey, loadOrCreateKey } from './keys';

describe('loadOrCreateKey', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'op-keys-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates a 32-byte key file with mode 0600 and reuses it', () => {
    const first = loadOrCreateKey(dir);
    expect(first).toHaveLength(32);
    const file = join(dir, 'secrets', 'encryption.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'secrets')).mode & 0o077).toBe(0);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    expect(loadOrCreateKey(dir).equals(first)).toBe(true);
  });

  it('keeps the JWT key in its own file', () => {
    const jwt = loadOrCreateJwtKey(dir);
    const enc = loadOrCreateKey(dir);
    expect(jwt.equals(enc)).toBe(false);
    expect(statSync(join(dir, 'secrets', 'jwt.key')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateJwtKey(dir).equals(jwt)).toBe(true);
  });

  it('prefers the environment value and validates it', () => {
    const env = randomBytes(32);
    expect(loadOrCreateKey(dir, env.toString('base64')).equals(env)).toBe(true);
    expect(() => loadOrCreateKey(dir, randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => loadOrCreateKey(dir, 'not base64!')).toThrow(KeyError);
    expect(() => loadOrCreateJwtKey(dir, 'short')).toThrow(/JWT_SECRET/);
  });

  it('tightens a copied key file and refuses a corrupted one instead of replacing it', () => {
    mkdirSync(join(dir, 'secrets'));
    const file = join(dir, 'secrets', 'encryption.key');
    const key = randomBytes(32);
    writeFileSync(file, key.toString('base64'));
    chmodSync(file, 0o644);
    expect(loadOrCreateKey(dir).equals(key)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, 'garbage');
    expect(() => loadOrCreateKey(dir)).toThrow(KeyError);
    expect(readFileSync(file, 'utf8')).toBe('garbage');
  });

  it('decodeKey names its source', () => {
    expect(() => decodeKey('abc=', 'ENCRYPTION_KEY')).toThrow(/ENCRYPTION_KEY/);
  });
});
