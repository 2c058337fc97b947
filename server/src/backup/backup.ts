// `npm run backup`: one encrypted archive of what a restore needs — the database (a consistent SQLite snapshot,
// or pg_dump's custom format) and DATA_DIR/secrets — put at the destination, older archives pruned, and the
// success recorded in DATA_DIR/backups-state.json for `npm run doctor`. The plaintext exists only in a private
// staging folder inside DATA_DIR (where the live database already is), removed whatever happens.
import { createHash, type KeyObject } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SQLITE_FILE_NAME, isPostgresUrl } from '../db/knex';
import { PG_DUMP_ENTRY, SQLITE_ENTRY, describeFiles, packBundle } from './bundle';
import { encryptStream, type Recipient, type ScryptParams } from './cipher';
import { dumpPostgres, secretFiles, snapshotSqlite } from './snapshot';
import { archiveName, openStore, prune, type S3Settings } from './store';

/** Read by `npm run doctor` to report the backup's age: keep the name and the fields. */
export const BACKUP_STATE_FILE = 'backups-state.json';
const STAGING_PREFIX = '.backup-staging-';
const STALE_STAGING_MS = 6 * 3_600_000;

export interface BackupState {
  /** UTC ISO instant of the last successful backup */
  at: string;
  /** where the archive went: a file path or s3://bucket/prefix/name */
  destination: string;
  bytes: number;
  /** hex SHA-256 of the encrypted archive */
  sha256: string;
}

export interface BackupSettings {
  dataDir: string;
  databaseUrl: string | undefined;
  /** a folder or s3://bucket/prefix */
  to: string;
  passphrase: string;
  /** an X25519 public key as a second recipient (its private key kept off the server) */
  publicKey?: KeyObject | undefined;
  s3?: S3Settings | undefined;
  /** archives kept at the destination, newest first; 0 keeps all */
  keep: number;
  appVersion: string;
  now: () => number;
  /** tests lower the scrypt cost; production uses the default */
  scrypt?: ScryptParams;
}

export interface BackupResult extends BackupState {
  /** archive names deleted by the retention rule */
  pruned: string[];
}

export async function runBackup(settings: BackupSettings): Promise<BackupResult> {
  const store = openStore(settings.to, settings.s3);
  await mkdir(settings.dataDir, { recursive: true, mode: 0o700 });
  await removeStaleStaging(settings.dataDir, settings.now());
  const staging = await mkdtemp(join(settings.dataDir, STAGING_PREFIX));
  await chmod(staging, 0o700);
  try {
    const at = settings.now();
    const postgres = isPostgresUrl(settings.databaseUrl);
    const databaseEntry = postgres ? PG_DUMP_ENTRY : SQLITE_ENTRY;
    if (postgres) await dumpPostgres(settings.databaseUrl as string, join(staging, databaseEntry));
    else snapshotSqlite(join(settings.dataDir, SQLITE_FILE_NAME), join(staging, databaseEntry));
    const secrets = secretFiles(settings.dataDir);
    await mkdir(join(staging, 'secrets'), { mode: 0o700 });
    for (const path of secrets) await copyFile(join(settings.dataDir, path), join(staging, path));

    const manifest = await describeFiles(staging, [databaseEntry, ...secrets], {
      createdAt: new Date(at).toISOString(),
      appVersion: settings.appVersion,
      database: postgres ? 'postgres' : 'sqlite',
    });
    const recipients: Recipient[] = [
      {
        kind: 'passphrase',
        passphrase: settings.passphrase,
        ...(settings.scrypt ? { scrypt: settings.scrypt } : {}),
      },
    ];
    if (settings.publicKey) recipients.push({ kind: 'x25519', publicKey: settings.publicKey });

    const name = archiveName(at);
    const archive = join(staging, name);
    const hash = createHash('sha256');
    let bytes = 0;
    await pipeline(
      encryptStream(packBundle(staging, manifest), recipients),
      async function* measure(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          bytes += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(archive, { mode: 0o600 }),
    );
    const sha256 = hash.digest('hex');
    await store.put(name, archive, sha256);

    const state: BackupState = {
      at: new Date(at).toISOString(),
      destination: store.locate(name),
      bytes,
      sha256,
    };
    await writeState(settings.dataDir, state);
    const pruned = await prune(store, settings.keep);
    return { ...state, pruned };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * A backup killed mid-way (kill -9, power loss) leaves its staging folder, plaintext included; the next run removes
 * any older than a run could take, and leaves a concurrent run's alone.
 */
async function removeStaleStaging(dataDir: string, now: number): Promise<void> {
  for (const name of await readdir(dataDir)) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const path = join(dataDir, name);
    if ((await stat(path)).mtimeMs < now - STALE_STAGING_MS) await rm(path, { recursive: true, force: true });
  }
}

/** Replaces DATA_DIR/backups-state.json in one rename, so a reader never sees half of it. */
async function writeState(dataDir: string, state: BackupState): Promise<void> {
  const file = join(dataDir, BACKUP_STATE_FILE);
  await writeFile(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}
