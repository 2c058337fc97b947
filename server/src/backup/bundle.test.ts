import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_ENTRY, describeFiles, packBundle, unpackBundle } from './bundle';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-bundle-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ABOUT = { createdAt: '2026-11-26T01:00:00.000Z', appVersion: 'test', database: 'sqlite' } as const;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of source) out.push(chunk);
  return Buffer.concat(out);
}

async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}

/** A bundle with a hand-written manifest, as a crafted archive would carry. */
function crafted(manifest: object, payload: string): Buffer {
  const json = Buffer.from(JSON.stringify({ format: 2, ...ABOUT, ...manifest }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([length, json, Buffer.from(payload)]);
}

describe('packBundle / unpackBundle', () => {
  it('round-trips the database and the secrets, owner-only, with sizes and checksums', async () => {
    const source = tempDir();
    mkdirSync(join(source, 'secrets'));
    writeFileSync(join(source, SQLITE_ENTRY), Buffer.alloc(200_000, 7));
    writeFileSync(join(source, 'secrets/encryption.key'), 'a2V5\n');
    const manifest = await describeFiles(source, [SQLITE_ENTRY, 'secrets/encryption.key'], ABOUT);
    expect(manifest.files[1]).toEqual({ path: 'secrets/encryption.key', bytes: 5, sha256: sha('a2V5\n') });

    const target = tempDir();
    const unpacked = await unpackBundle(once(await collect(packBundle(source, manifest))), target);
    expect(unpacked).toEqual(manifest);
    expect(readFileSync(join(target, SQLITE_ENTRY)).equals(Buffer.alloc(200_000, 7))).toBe(true);
    expect(readFileSync(join(target, 'secrets/encryption.key'), 'utf8')).toBe('a2V5\n');
    expect(statSync(join(target, 'secrets/encryption.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(target, 'secrets')).mode & 0o077).toBe(0);
  });

  it('refuses a manifest path that leaves the target folder', async () => {
    const target = tempDir();
    const bundle = crafted(
      {
        files: [
          { path: SQLITE_ENTRY, bytes: 1, sha256: sha('x') },
          { path: '../escaped', bytes: 1, sha256: sha('y') },
        ],
      },
      'xy',
    );
    await expect(unpackBundle(once(bundle), join(target, 'in'))).rejects.toThrow(/manifest is malformed/);
    expect(existsSync(join(target, 'escaped'))).toBe(false);
  });

  it('refuses a file that does not match its checksum, a short file and trailing bytes', async () => {
    const entry = { path: SQLITE_ENTRY, bytes: 3, sha256: sha('abc') };
    await expect(unpackBundle(once(crafted({ files: [entry] }, 'abd')), tempDir())).rejects.toThrow(
      /does not match its checksum/,
    );
    await expect(unpackBundle(once(crafted({ files: [entry] }, 'ab')), tempDir())).rejects.toThrow(
      /truncated/,
    );
    await expect(unpackBundle(once(crafted({ files: [entry] }, 'abcd')), tempDir())).rejects.toThrow(
      /more than its manifest lists/,
    );
  });

  it('refuses a bundle without the database its manifest names', async () => {
    const bundle = crafted({ files: [{ path: 'secrets/jwt.key', bytes: 1, sha256: sha('k') }] }, 'k');
    await expect(unpackBundle(once(bundle), tempDir())).rejects.toThrow(/holds no database/);
  });
});

describe('describeFiles', () => {
  it('names a secrets file it cannot archive instead of leaving it out', async () => {
    const source = tempDir();
    mkdirSync(join(source, 'secrets'));
    writeFileSync(join(source, SQLITE_ENTRY), 'db');
    writeFileSync(join(source, 'secrets/my key'), 'k');
    await expect(describeFiles(source, [SQLITE_ENTRY, 'secrets/my key'], ABOUT)).rejects.toThrow(
      'cannot archive secrets/my key',
    );
  });
});
