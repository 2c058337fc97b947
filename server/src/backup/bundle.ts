// What an archive holds once decrypted: a length-prefixed JSON manifest, then the listed files' bytes one after the
// other. The manifest names each file (the database snapshot or dump, and every file of DATA_DIR/secrets) with its
// size and SHA-256, so unpacking checks each file, and a restore knows which kind of database it carries.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { ByteReader } from './byteReader';
import { BackupError } from './errors';

export const BUNDLE_FORMAT = 2;
const MAX_MANIFEST_BYTES = 1024 * 1024;
const PIECE_BYTES = 64 * 1024;

/** The SQLite snapshot's and the PostgreSQL dump's names inside an archive. */
export const SQLITE_ENTRY = 'optionpilot.sqlite3';
export const PG_DUMP_ENTRY = 'database.pgdump';

const manifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  /** UTC ISO instant the snapshot was taken */
  createdAt: z.string(),
  appVersion: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  files: z.array(
    z.object({
      // One level under `secrets/` at most, plain names only: a crafted manifest must not write outside the target.
      path: z
        .string()
        .regex(/^(?:secrets\/)?[A-Za-z0-9_-][A-Za-z0-9._-]*$/)
        .refine((p) => !p.split('/').includes('..')),
      bytes: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
});
export type BundleManifest = z.infer<typeof manifestSchema>;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(file)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

/** The manifest of `paths` (relative to `dir`), with their sizes and checksums. */
export async function describeFiles(
  dir: string,
  paths: readonly string[],
  about: Omit<BundleManifest, 'format' | 'files'>,
): Promise<BundleManifest> {
  const files = [];
  for (const path of paths) {
    const file = join(dir, path);
    files.push({ path, bytes: (await stat(file)).size, sha256: await sha256Of(file) });
  }
  const parsed = manifestSchema.safeParse({ format: BUNDLE_FORMAT, ...about, files });
  if (!parsed.success) {
    // Only a file name outside [A-Za-z0-9._-] in DATA_DIR/secrets gets here; say which rather than skip a key.
    const bad = files.find((f) => !manifestSchema.shape.files.element.shape.path.safeParse(f.path).success);
    throw new BackupError(
      `cannot archive ${bad?.path ?? 'a file'}: rename it to letters, digits, ".", "_" or "-"`,
    );
  }
  return parsed.data;
}

/** The bundle's bytes: the manifest, then each file as the manifest lists it. */
export async function* packBundle(dir: string, manifest: BundleManifest): AsyncGenerator<Buffer> {
  const json = Buffer.from(JSON.stringify(manifest));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  yield Buffer.concat([length, json]);
  for (const entry of manifest.files) {
    let sent = 0;
    for await (const piece of createReadStream(join(dir, entry.path), { highWaterMark: PIECE_BYTES })) {
      sent += (piece as Buffer).length;
      yield piece as Buffer;
    }
    if (sent !== entry.bytes) throw new BackupError(`${entry.path} changed while it was being archived`);
  }
}

/**
 * Writes the bundle's files into `dir` (which should be empty and private), checking each against the manifest.
 * Files are created 0600 and folders 0700: they hold the keys.
 */
export async function unpackBundle(source: AsyncIterable<Uint8Array>, dir: string): Promise<BundleManifest> {
  const reader = new ByteReader(source);
  const fail = (message: string) => new BackupError(message);
  const length = (await reader.readExactly(4, 'the manifest', fail)).readUInt32BE(0);
  if (length > MAX_MANIFEST_BYTES) throw new BackupError('the archive manifest is malformed');
  let parsed;
  try {
    parsed = manifestSchema.safeParse(
      JSON.parse((await reader.readExactly(length, 'the manifest', fail)).toString()),
    );
  } catch (err) {
    if (err instanceof BackupError) throw err;
    parsed = undefined;
  }
  if (!parsed?.success) throw new BackupError('the archive manifest is malformed');
  const manifest = parsed.data;
  const databaseEntry = manifest.database === 'sqlite' ? SQLITE_ENTRY : PG_DUMP_ENTRY;
  if (!manifest.files.some((f) => f.path === databaseEntry))
    throw new BackupError('the archive holds no database');

  for (const entry of manifest.files) {
    const target = join(dir, entry.path);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const handle = await open(target, 'wx', 0o600);
    const hash = createHash('sha256');
    try {
      for (let left = entry.bytes; left > 0;) {
        const piece = await reader.readExactly(Math.min(left, PIECE_BYTES), entry.path, fail);
        hash.update(piece);
        await handle.write(piece);
        left -= piece.length;
      }
    } finally {
      await handle.close();
    }
    if (hash.digest('hex') !== entry.sha256)
      throw new BackupError(`${entry.path} does not match its checksum`);
  }
  if (!(await reader.atEnd())) throw new BackupError('the archive holds more than its manifest lists');
  return manifest;
}
