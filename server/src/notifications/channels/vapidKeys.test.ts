import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyError } from '../../crypto/keys';
import { loadOrCreateVapidKeys } from './vapidKeys';

describe('loadOrCreateVapidKeys', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'op-vapid-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a P-256 pair once in secrets/vapid.json with mode 0600 and reuses it on the next start', () => {
    const first = loadOrCreateVapidKeys(dir);
    const file = join(dir, 'secrets', 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'secrets')).mode & 0o077).toBe(0);
    const publicKey = Buffer.from(first.publicKey, 'base64url');
    expect(publicKey).toHaveLength(65);
    expect(publicKey[0]).toBe(0x04);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);

    const again = loadOrCreateVapidKeys(dir);
    expect(again).toEqual(first);
    // Another data directory gets its own pair: the keys are random, not derived from anything.
    const other = mkdtempSync(join(tmpdir(), 'op-vapid-'));
    try {
      expect(loadOrCreateVapidKeys(other).publicKey).not.toBe(first.publicKey);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('narrows a copied file that others could read back to 0600', () => {
    loadOrCreateVapidKeys(dir);
    const file = join(dir, 'secrets', 'vapid.json');
    chmodSync(file, 0o644);
    loadOrCreateVapidKeys(dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a damaged file instead of replacing it (every subscription depends on the pair)', () => {
    loadOrCreateVapidKeys(dir);
    const file = join(dir, 'secrets', 'vapid.json');
    writeFileSync(file, '{"publicKey":"abc","privateKey":"def"}');
    expect(() => loadOrCreateVapidKeys(dir)).toThrow(KeyError);
    writeFileSync(file, 'not json');
    expect(() => loadOrCreateVapidKeys(dir)).toThrow(/not JSON/);
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });
});
