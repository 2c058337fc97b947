// `npm run backup -- --to <folder | s3://bucket/prefix> [--keep N] [--passphrase-file F] [--public-key F]`: one
// encrypted archive of the database and DATA_DIR/secrets at the destination, the oldest beyond N pruned, and the
// success recorded in DATA_DIR/backups-state.json. Exits non-zero with one line on stderr on any failure.
import { isAbsolute, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/src/config';
import { runBackup } from '../server/src/backup/backup';
import { readPublicKeyFile } from '../server/src/backup/cipher';
import { DEFAULT_KEEP, loadBackupEnv, passphraseFrom, s3From } from '../server/src/backup/env';

const USAGE =
  'usage: npm run backup -- --to <folder | s3://bucket/prefix> [--keep N] [--passphrase-file FILE] [--public-key FILE]\n' +
  '  (or BACKUP_DIR, BACKUP_KEEP, BACKUP_PASSPHRASE, BACKUP_PUBLIC_KEY; s3:// needs BACKUP_S3_ENDPOINT,\n' +
  '   BACKUP_S3_ACCESS_KEY_ID, BACKUP_S3_SECRET_ACCESS_KEY and optionally BACKUP_S3_REGION)';

function fail(message: string): never {
  process.stderr.write(`backup: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      to: { type: 'string' },
      keep: { type: 'string' },
      'passphrase-file': { type: 'string' },
      'public-key': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const env = loadBackupEnv();
  const to = values.to ?? env.BACKUP_DIR;
  if (to === undefined) {
    fail(
      `say where the archive goes: --to <folder on another disk | s3://bucket/prefix> or BACKUP_DIR\n${USAGE}`,
    );
  }
  const passphrase = passphraseFrom(values['passphrase-file'], env);
  if (passphrase === null)
    fail(`set BACKUP_PASSPHRASE or pass --passphrase-file: archives are always encrypted`);
  const keepText =
    values.keep ?? (env.BACKUP_KEEP === undefined ? String(DEFAULT_KEEP) : String(env.BACKUP_KEEP));
  if (!/^\d+$/.test(keepText)) fail(`--keep must be a whole number of archives to keep (0 keeps all)`);
  const publicKeyFile = values['public-key'] ?? env.BACKUP_PUBLIC_KEY;

  if (!to.startsWith('s3://')) {
    const inside = relative(config.dataDir, resolve(to));
    if (!inside.startsWith('..') && !isAbsolute(inside)) {
      process.stderr.write(
        `backup: WARNING: ${resolve(to)} is inside DATA_DIR, on the same disk as the data: a lost disk takes the ` +
          'backups with it. Use a folder on another disk, one synced off the machine, or an s3:// bucket.\n',
      );
    }
  }
  const result = await runBackup({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    to,
    passphrase,
    publicKey: publicKeyFile === undefined ? undefined : readPublicKeyFile(publicKeyFile),
    s3: s3From(env),
    keep: Number(keepText),
    appVersion: config.version,
    now: Date.now,
  });
  process.stdout.write(`${result.destination} (${result.bytes} bytes, sha256 ${result.sha256})\n`);
  for (const name of result.pruned) process.stdout.write(`pruned ${name}\n`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) fail(err.message);
  fail(err instanceof Error ? err.message : String(err));
});
