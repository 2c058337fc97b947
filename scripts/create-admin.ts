// `npm run create-admin -- --email you@example.com [--password '...']`
// Creates an admin account, or grants admin rights to the existing account with that e-mail, on the database
// configured by DATA_DIR / DATABASE_URL (migrating it first). A new account without --password gets a generated
// password, printed once. Exits non-zero with a clear message on any failure.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/src/config';
import { closeDatabase, migrateLatest, openDatabase } from '../server/src/db';
import { emailSchema, passwordSchema } from '../server/src/contract';
import { createPasswordHasher } from '../server/src/auth/passwords';
import { systemClock } from '../server/src/clock';
import { createOrPromoteAdmin } from '../server/src/services/admins';

const USAGE = 'usage: npm run create-admin -- --email <address> [--password <password>]';

function fail(message: string): never {
  process.stderr.write(`create-admin: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let values: { email?: string; password?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const email = emailSchema.safeParse(values.email);
  if (!email.success) fail(`--email: ${email.error.issues[0]?.message ?? 'invalid'}\n${USAGE}`);
  if (values.password !== undefined) {
    const password = passwordSchema.safeParse(values.password);
    if (!password.success) fail(`--password: ${password.error.issues[0]?.message ?? 'invalid'}`);
  }

  const config = (() => {
    try {
      return loadConfig();
    } catch (err) {
      if (err instanceof ConfigError) fail(err.message);
      throw err;
    }
  })();
  const db = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateLatest(db);
    const result = await createOrPromoteAdmin({
      db,
      passwords: createPasswordHasher(),
      clock: systemClock,
      email: email.data,
      ...(values.password !== undefined ? { password: values.password } : {}),
    });
    const where = db.dialect === 'sqlite' ? config.dataDir : 'PostgreSQL (DATABASE_URL)';
    if (!result.created) {
      process.stdout.write(
        `${result.email} is now an admin${values.password !== undefined ? ' (password updated)' : ''} [${where}]\n`,
      );
    } else if (result.generatedPassword) {
      process.stdout.write(
        `Created admin ${result.email} [${where}]\nPassword (shown once, store it now): ${result.generatedPassword}\n`,
      );
    } else {
      process.stdout.write(`Created admin ${result.email} with the given password [${where}]\n`);
    }
  } finally {
    await closeDatabase(db);
  }
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
