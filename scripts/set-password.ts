// `npm run set-password -- --email trader@example.com [--password '...']`
// Sets a new password for the account with that e-mail on the database configured by DATA_DIR / DATABASE_URL and
// signs it out everywhere. Without --password a password is generated and printed once (a password typed on the
// command line stays in the shell history). Exits non-zero with a clear message on any failure.
import { createPasswordHasher } from '../server/src/auth/passwords';
import { systemClock } from '../server/src/clock';
import { setPasswordByOperator } from '../server/src/services/operatorPassword';
import { fail, parseAccountArgs, withDatabase } from './operatorCli';

const COMMAND = 'set-password';
const USAGE = 'usage: npm run set-password -- --email <address> [--password <password>]';

async function main(): Promise<void> {
  const args = parseAccountArgs(COMMAND, USAGE);
  if (!args) return;
  await withDatabase(COMMAND, async (db) => {
    const result = await setPasswordByOperator({
      db,
      passwords: createPasswordHasher(),
      clock: systemClock,
      ...args,
    });
    const ended = `${result.revokedSessions} session(s) signed out`;
    process.stdout.write(
      result.generatedPassword === undefined
        ? `Password of ${result.email} set; ${ended}\n`
        : `Password of ${result.email} set; ${ended}\nNew password (shown once, pass it on securely): ${result.generatedPassword}\n`,
    );
  });
}

main().catch((err: unknown) => fail(COMMAND, err instanceof Error ? err.message : String(err)));
