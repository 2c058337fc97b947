// `npm run backup [-- --to <folder>]`: a consistent online copy of the SQLite database (SQLite's VACUUM INTO, safe
// while the server runs) and DATA_DIR/secrets into `<folder>/optionpilot-<UTC time>/` (0700, files 0600). The
// default folder is DATA_DIR/backups. Prints the new folder; exits non-zero with a message on any failure.
// PostgreSQL deployments (DATABASE_URL) are backed up with pg_dump instead.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sqliteDataDir } from './sqliteDataDir';
import { backupDataDir } from '../server/src/backup/backup';

const USAGE = 'usage: npm run backup [-- --to <folder>]';

function fail(message: string): never {
  process.stderr.write(`backup: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let values: { to?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { to: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dataDir = sqliteDataDir(
    fail,
    'back it up with pg_dump (e.g. `pg_dump -Fc "$DATABASE_URL" > op.dump`) and copy DATA_DIR/secrets alongside',
  );
  const folder = await backupDataDir({
    dataDir,
    destination: values.to ?? join(dataDir, 'backups'),
    now: Date.now(),
  });
  process.stdout.write(`${folder}\n`);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
