// `npm run restore -- <archive> --to-data-dir <fresh folder> [--force]`: an archive made by `npm run backup` into a
// fresh DATA_DIR (a PostgreSQL archive also into the fresh database at DATABASE_URL or --to-database-url).
// `npm run restore -- --verify [<archive>]`: the restore drill into a temporary folder (and scratch database),
// printing OK or FAIL per check; the newest archive at --from / BACKUP_DIR when none is named. Exits non-zero on
// any failure. The archive opens with its passphrase (BACKUP_PASSPHRASE / --passphrase-file) or, when it was also
// encrypted to a backup public key, with that key's private half (--identity-file).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/src/config';
import { isPostgresUrl } from '../server/src/db';
import { readPrivateKeyFile, type Unlock } from '../server/src/backup/cipher';
import { loadBackupEnv, passphraseFrom, s3From } from '../server/src/backup/env';
import { restoreArchive } from '../server/src/backup/restore';
import { fetchArchive } from '../server/src/backup/store';
import { verifyArchive } from '../server/src/backup/verify';

const USAGE =
  'usage: npm run restore -- <archive | s3://bucket/prefix/name> --to-data-dir DIR [--to-database-url URL] [--force]\n' +
  '       npm run restore -- --verify [<archive>] [--from <folder | s3://bucket/prefix>]\n' +
  '  either: --passphrase-file FILE (or BACKUP_PASSPHRASE) or --identity-file <X25519 private key PEM>';

function fail(message: string): never {
  process.stderr.write(`restore: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      'to-data-dir': { type: 'string' },
      'to-database-url': { type: 'string' },
      force: { type: 'boolean' },
      verify: { type: 'boolean' },
      from: { type: 'string' },
      'passphrase-file': { type: 'string' },
      'identity-file': { type: 'string' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length > 1) fail(USAGE);
  const config = loadConfig();
  const env = loadBackupEnv();
  let unlock: Unlock;
  if (values['identity-file'] !== undefined) {
    unlock = { kind: 'x25519', privateKey: readPrivateKeyFile(values['identity-file']) };
  } else {
    const passphrase = passphraseFrom(values['passphrase-file'], env);
    if (passphrase === null)
      fail(`set BACKUP_PASSPHRASE, or pass --passphrase-file or --identity-file\n${USAGE}`);
    unlock = { kind: 'passphrase', passphrase };
  }
  const [ref] = positionals;
  if (!values.verify && (ref === undefined || values['to-data-dir'] === undefined)) fail(USAGE);

  const downloads = await mkdtemp(join(tmpdir(), 'optionpilot-restore-'));
  try {
    const archive = await fetchArchive(ref, values.from ?? env.BACKUP_DIR, s3From(env), downloads);
    const serverUrl =
      values['to-database-url'] ?? (isPostgresUrl(config.databaseUrl) ? config.databaseUrl : undefined);
    if (values.verify) {
      process.stdout.write(`verifying ${archive}\n`);
      const checks = await verifyArchive({
        archive,
        unlock,
        databaseUrl: serverUrl,
        encryptionKey: process.env.ENCRYPTION_KEY,
        jwtSecret: process.env.JWT_SECRET,
        now: Date.now(),
      });
      for (const check of checks)
        process.stdout.write(`${check.ok ? 'OK  ' : 'FAIL'} ${check.name}: ${check.detail}\n`);
      const ok = checks.every((c) => c.ok);
      process.stdout.write(`verify: ${ok ? 'OK' : 'FAIL'}\n`);
      if (!ok) process.exitCode = 1;
      return;
    }
    const dataDir = resolve(values['to-data-dir'] as string);
    const result = await restoreArchive({
      archive,
      unlock,
      dataDir,
      databaseUrl: serverUrl,
      force: values.force === true,
      now: Date.now(),
    });
    process.stdout.write(
      `restored the ${result.manifest.database} backup of ${result.manifest.createdAt} into ${dataDir}` +
        (result.aside === null ? '\n' : `; the replaced files are in ${result.aside}\n`),
    );
  } finally {
    await rm(downloads, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) fail(err.message);
  fail(err instanceof Error ? err.message : String(err));
});
