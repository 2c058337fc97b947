// File modes: DATA_DIR holds every user's data and the keys that decrypt broker tokens and sign sessions. The server
// creates it 0700 and its files 0600; an operator's `cp -r` or `chmod` can widen them. Others having any access is
// a FAIL; the group having access is a WARN. The env file holds secrets too (Razorpay, SMTP, backup passphrase).
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SQLITE_FILE_NAME } from '../db';
import { fail, ok, warn, type CheckResult, type DoctorCheck } from './types';

async function modeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

/** Names in `dir`, or none when it does not exist. */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** The paths to check and the mode each should have at most: every file in secrets/, not a list that can age. */
async function privatePaths(
  dataDir: string,
  envFile: string,
): Promise<Array<{ path: string; want: number }>> {
  const secrets = join(dataDir, 'secrets');
  const paths = [
    { path: dataDir, want: 0o700 },
    { path: secrets, want: 0o700 },
    ...(await namesIn(secrets)).map((f) => ({ path: join(secrets, f), want: 0o600 })),
    ...(await namesIn(dataDir))
      .filter((n) => n.startsWith(SQLITE_FILE_NAME))
      .map((n) => ({ path: join(dataDir, n), want: 0o600 })),
  ];
  // root:optionpilot 0640 is the documented install, so the group may read it; nobody else may.
  paths.push({ path: envFile, want: 0o640 });
  return paths;
}

export const fileModesCheck: DoctorCheck = {
  name: 'file-modes',
  beforeDatabase: true,
  async run({ config, envFile }) {
    const worldOpen: string[] = [];
    const groupOpen: string[] = [];
    let checked = 0;
    for (const { path, want } of await privatePaths(config.dataDir, envFile)) {
      const mode = await modeOf(path);
      if (mode === undefined) continue;
      checked += 1;
      const extra = mode & ~want;
      if (extra & 0o007) worldOpen.push(`${path} ${octal(mode)}`);
      else if (extra) groupOpen.push(`${path} ${octal(mode)}`);
    }
    const fix = `chmod 0700 DATA_DIR and DATA_DIR/secrets, 0600 the files in them, 0640 ${envFile}`;
    if (worldOpen.length > 0) return fail(`open to other users: ${worldOpen.join(', ')}`, fix);
    if (groupOpen.length > 0) return warn(`open to the group: ${groupOpen.join(', ')}`, fix);
    return ok(checked === 0 ? 'nothing to check yet' : `${checked} private paths owner-only`);
  },
};

/** The generated keys exist (or are set in the environment); they appear at the server's first start. */
export const secretsCheck: DoctorCheck = {
  name: 'secrets',
  async run({ config }): Promise<CheckResult> {
    const missing: string[] = [];
    if (config.jwtSecret === undefined) missing.push('jwt.key');
    if (config.encryptionKey === undefined) missing.push('encryption.key');
    const absent: string[] = [];
    for (const name of missing) {
      if ((await modeOf(join(config.dataDir, 'secrets', name))) === undefined) absent.push(name);
    }
    if (absent.length > 0) {
      return warn(
        `not generated yet: ${absent.map((n) => `secrets/${n}`).join(', ')}`,
        'start the server once: it generates them (0600); keep them in your backups',
      );
    }
    return ok(
      missing.length === 0
        ? 'JWT_SECRET and ENCRYPTION_KEY from the environment'
        : 'keys present in DATA_DIR/secrets',
    );
  },
};
