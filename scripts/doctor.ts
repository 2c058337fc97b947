// `npm run doctor`: checks an installation (clock, calendar, operator details, EGRESS_IP, database, broker sessions,
// last backup, disk, file modes, secrets, SMTP, Razorpay) and prints one line per check with the fix. Run it after
// installing and every morning; it exits 1 only when a check FAILs. `--env-file` reads the service's env file (as
// systemd does) over the current environment, so `sudo -u optionpilot npm run doctor -- --env-file
// /etc/optionpilot/env` checks exactly what the service runs with.
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { doctorMain } from '../server/src/doctor/doctor';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  process.stdout.write('usage: npm run doctor [-- --env-file /etc/optionpilot/env]\n');
  process.exit(0);
}
const envFileAt = args.indexOf('--env-file');
const envFile = envFileAt >= 0 ? args[envFileAt + 1] : undefined;

let env: Record<string, string | undefined> = process.env;
if (envFile !== undefined) {
  try {
    env = { ...process.env, ...parseEnv(readFileSync(envFile, 'utf8')) };
  } catch (err) {
    process.stderr.write(
      `doctor: cannot read --env-file: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  }
}

doctorMain({
  env,
  write: (line) => process.stdout.write(`${line}\n`),
  ...(envFile === undefined ? {} : { envFile }),
})
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    process.stderr.write(`doctor: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
