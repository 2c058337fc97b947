// `npm run restore -- --verify`: the restore drill. The archive is restored into a temporary DATA_DIR (and, for a
// PostgreSQL archive, a temporary database on the same server, dropped afterwards), then opened the way the
// server opens it: integrity, row counts of the key tables, migrations known to this version, and whether the
// restored keys decrypt the stored broker credentials. A backup that fails any of these would fail on the day.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations } from '../../../migrations';
import { ENCRYPTION_KEY_FILE, JWT_KEY_FILE, SECRETS_DIR, decodeKey } from '../crypto/keys';
import { createSecretBox } from '../crypto/secretBox';
import { SQLITE_FILE_NAME, closeDatabase, openDatabase } from '../db/knex';
import { type Unlock } from './cipher';
import { restoreArchive } from './restore';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase, sqliteIntegrity } from './snapshot';

export interface Check {
  ok: boolean;
  name: string;
  detail: string;
}

export interface VerifySettings {
  archive: string;
  unlock: Unlock;
  /** a PostgreSQL server to restore a PostgreSQL archive into (a temporary database is created there) */
  databaseUrl?: string | undefined;
  /** ENCRYPTION_KEY / JWT_SECRET when the deployment sets the keys in the environment instead of files */
  encryptionKey?: string | undefined;
  jwtSecret?: string | undefined;
  now: number;
}

const KEY_TABLES = ['users', 'broker_accounts', 'subscriptions', 'payments', 'trades'];

export async function verifyArchive(settings: VerifySettings): Promise<Check[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'optionpilot-verify-'));
  const scratch = `optionpilot_verify_${randomBytes(6).toString('hex')}`;
  let createdDatabase = false;
  const checks: Check[] = [];
  try {
    let databaseUrl: string | undefined;
    try {
      const serverUrl = settings.databaseUrl;
      const restored = await restoreArchive({
        archive: settings.archive,
        unlock: settings.unlock,
        dataDir,
        // Asked for only when the archive holds a PostgreSQL dump: a scratch database on the same server.
        databaseUrl:
          serverUrl === undefined
            ? undefined
            : async () => {
                await createPostgresDatabase(serverUrl, scratch);
                createdDatabase = true;
                databaseUrl = databaseUrlFor(serverUrl, scratch);
                return databaseUrl;
              },
        force: true,
        now: settings.now,
      });
      checks.push({
        ok: true,
        name: 'archive',
        detail: `decrypted, ${restored.manifest.files.length} files match their checksums (taken ${restored.manifest.createdAt}, ${restored.manifest.database})`,
      });
    } catch (err) {
      checks.push({ ok: false, name: 'archive', detail: err instanceof Error ? err.message : String(err) });
      return checks;
    }
    if (databaseUrl === undefined) {
      const integrity = sqliteIntegrity(join(dataDir, SQLITE_FILE_NAME));
      checks.push({
        ok: integrity === 'ok',
        name: 'integrity',
        detail: `PRAGMA integrity_check: ${integrity}`,
      });
    } else {
      checks.push({ ok: true, name: 'integrity', detail: 'pg_restore loaded the dump in one transaction' });
    }
    checks.push(...(await databaseChecks(dataDir, databaseUrl, settings)));
    return checks;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    if (createdDatabase && settings.databaseUrl !== undefined) {
      await dropPostgresDatabase(settings.databaseUrl, scratch);
    }
  }
}

async function databaseChecks(dataDir: string, databaseUrl: string | undefined, settings: VerifySettings) {
  const checks: Check[] = [];
  const db = openDatabase({ dataDir, databaseUrl });
  try {
    const counts: string[] = [];
    let missing: string | null = null;
    for (const table of KEY_TABLES) {
      try {
        const row = (await db.knex(table).count({ n: '*' }).first()) as { n: number | string } | undefined;
        counts.push(`${table} ${Number(row?.n ?? 0)}`);
      } catch {
        missing = table;
        break;
      }
    }
    checks.push(
      missing === null
        ? { ok: true, name: 'tables', detail: counts.join(', ') }
        : { ok: false, name: 'tables', detail: `table ${missing} is missing` },
    );

    const applied = ((await db.knex('knex_migrations').select('name')) as { name: string }[]).map(
      (r) => r.name,
    );
    const known = new Set(migrations.map((m) => m.name));
    const unknown = applied.filter((name) => !known.has(name));
    const pending = migrations.filter((m) => !applied.includes(m.name)).length;
    checks.push(
      unknown.length > 0
        ? {
            ok: false,
            name: 'migrations',
            detail: `made by a newer version (unknown: ${unknown.join(', ')})`,
          }
        : {
            ok: true,
            name: 'migrations',
            detail:
              pending === 0
                ? `all ${applied.length} applied`
                : `${pending} pending, applied at the next start`,
          },
    );
    checks.push(await secretsCheck(db.knex, dataDir, settings));
    checks.push(jwtCheck(dataDir, settings.jwtSecret));
  } finally {
    await closeDatabase(db);
  }
  return checks;
}

/** Reads a restored key file, or the environment's value when the deployment keeps the key there. */
function restoredKey(dataDir: string, file: string, envValue: string | undefined): Buffer | string {
  const path = join(dataDir, SECRETS_DIR, file);
  const source =
    envValue !== undefined && envValue !== ''
      ? envValue
      : existsSync(path)
        ? readFileSync(path, 'utf8')
        : null;
  if (source === null) return `no ${SECRETS_DIR}/${file} in the archive (and none set in the environment)`;
  try {
    return decodeKey(source, file);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

async function secretsCheck(
  knex: ReturnType<typeof openDatabase>['knex'],
  dataDir: string,
  settings: VerifySettings,
) {
  const key = restoredKey(dataDir, ENCRYPTION_KEY_FILE, settings.encryptionKey);
  if (typeof key === 'string') return { ok: false, name: 'secrets', detail: key };
  const box = createSecretBox(key);
  const rows = (await knex('broker_accounts').select('api_key_enc', 'access_token_enc').limit(5)) as {
    api_key_enc: string;
    access_token_enc: string | null;
  }[];
  if (rows.length === 0)
    return { ok: true, name: 'secrets', detail: 'key present; no stored broker credentials to try' };
  try {
    for (const row of rows) {
      box.open(row.api_key_enc);
      if (row.access_token_enc !== null) box.open(row.access_token_enc);
    }
  } catch {
    return {
      ok: false,
      name: 'secrets',
      detail: 'the encryption key does not decrypt the stored broker credentials',
    };
  }
  return {
    ok: true,
    name: 'secrets',
    detail: `decrypted the stored broker credentials of ${rows.length} account(s)`,
  };
}

function jwtCheck(dataDir: string, jwtSecret: string | undefined): Check {
  const key = restoredKey(dataDir, JWT_KEY_FILE, jwtSecret);
  return typeof key === 'string'
    ? { ok: false, name: 'jwt key', detail: key }
    : { ok: true, name: 'jwt key', detail: 'present (sessions stay valid after a restore)' };
}
