// `npm run create-admin -- --email you@example.com [--password '...']`
// Creates an admin account, or grants admin rights to the existing account with that e-mail, on the database
// configured by DATA_DIR / DATABASE_URL (migrating it first). A new account without --password gets a generated
// password, printed once. Exits non-zero with a clear message on any failure.
import { createPasswordHasher } from '../server/src/auth/passwords';
import { systemClock } from '../server/src/clock';
import { createOrPromoteAdmin } from '../server/src/services/admins';
import { fail, parseAccountArgs, withDatabase } from './operatorCli';

const COMMAND = 'create-admin';
const USAGE = 'usage: npm run create-admin -- --email <address> [--password <password>]';

async function main(): Promise<void> {
  const args = parseAccountArgs(COMMAND, USAGE);
  if (!args) return;
  await withDatabase(COMMAND, async (db, where) => {
    const result = await createOrPromoteAdmin({
      db,
      passwords: createPasswordHasher(),
      clock: systemClock,
      ...args,
    });
    if (!result.created) {
      process.stdout.write(
        `${result.email} is now an admin${args.password !== undefined ? ' (password updated)' : ''} [${where}]\n`,
      );
    } else if (result.generatedPassword) {
      process.stdout.write(
        `Created admin ${result.email} [${where}]\nPassword (shown once, store it now): ${result.generatedPassword}\n`,
      );
    } else {
      process.stdout.write(`Created admin ${result.email} with the given password [${where}]\n`);
    }
  });
}

main().catch((err: unknown) => fail(COMMAND, err instanceof Error ? err.message : String(err)));
