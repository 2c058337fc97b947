// What the account commands (`create-admin`, `set-password`) share: `--email` and an optional `--password`
// checked by the product's own rules, the configured database (migrated first), and one clear line on stderr with
// a non-zero exit for any failure.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../server/src/config';
import { closeDatabase, migrateLatest, openDatabase, type Database } from '../server/src/db';
import { emailSchema, passwordSchema } from '../server/src/contract';

export interface AccountArgs {
  email: string;
  password?: string;
}

/** Prints `<command>: message` to stderr and exits 1. */
export function fail(command: string, message: string): never {
  process.stderr.write(`${command}: ${message}\n`);
  process.exit(1);
}

/** Parses `--email` and `--password` (or prints `usage` for `--help` and returns undefined). */
export function parseAccountArgs(command: string, usage: string): AccountArgs | undefined {
  let values: { email?: string; password?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (err) {
    fail(command, `${err instanceof Error ? err.message : String(err)}\n${usage}`);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return undefined;
  }
  const email = emailSchema.safeParse(values.email);
  if (!email.success) fail(command, `--email: ${email.error.issues[0]?.message ?? 'invalid'}\n${usage}`);
  if (values.password === undefined) return { email: email.data };
  const password = passwordSchema.safeParse(values.password);
  if (!password.success) fail(command, `--password: ${password.error.issues[0]?.message ?? 'invalid'}`);
  return { email: email.data, password: values.password };
}

/** Runs `work` on the configured, migrated database and closes it; `where` names it for the operator. */
export async function withDatabase(
  command: string,
  work: (db: Database, where: string) => Promise<void>,
): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(command, err.message);
    throw err;
  }
  const db = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateLatest(db);
    await work(db, db.dialect === 'sqlite' ? config.dataDir : 'PostgreSQL (DATABASE_URL)');
  } finally {
    await closeDatabase(db);
  }
}
