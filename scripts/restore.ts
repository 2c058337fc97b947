// `npm run restore -- <backup folder> --yes`: puts a folder made by `npm run backup` back into DATA_DIR. Refuses
// without --yes, while the server has the database open, or when a file does not match the backup's manifest. The
// replaced database and secrets are moved to DATA_DIR/pre-restore-<UTC time>/, not deleted.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sqliteDataDir } from './sqliteDataDir';
import { restoreDataDir } from '../server/src/backup/restore';

const USAGE = 'usage: npm run restore -- <backup folder> --yes';

function fail(message: string): never {
  process.stderr.write(`restore: ${message}\n`);
  process.exit(1);
}

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      options: { yes: { type: 'boolean' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const [folder, ...rest] = parsed.positionals;
  if (folder === undefined || rest.length > 0) fail(USAGE);
  const dataDir = sqliteDataDir(fail, 'restore it with pg_restore');
  const aside = restoreDataDir({
    folder: resolve(folder),
    dataDir,
    confirmed: parsed.values.yes === true,
    now: Date.now(),
  });
  process.stdout.write(
    `restored ${folder} into ${dataDir}` + (aside === null ? '\n' : `; the replaced files are in ${aside}\n`),
  );
}

try {
  main();
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
