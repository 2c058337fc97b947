// Issue 21 item 2 end to end: a DATA_DIR with a trader whose broker credentials are sealed with the generated
// encryption key is backed up into one encrypted archive (a folder, or the fake S3 bucket), restored into a fresh
// DATA_DIR (and, on PostgreSQL, a fresh database), and checked by the restore drill. Wrong passphrases, altered
// archives and non-empty targets are refused with nothing written; retention prunes the oldest archives.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_STATE_FILE, runBackup, type BackupSettings } from '../../server/src/backup/backup';
import { readPrivateKeyFile, readPublicKeyFile } from '../../server/src/backup/cipher';
import { restoreArchive } from '../../server/src/backup/restore';
import {
  databaseUrlFor,
  createPostgresDatabase,
  dropPostgresDatabase,
} from '../../server/src/backup/snapshot';
import { fetchArchive, openStore } from '../../server/src/backup/store';
import { verifyArchive } from '../../server/src/backup/verify';
import { ACCESS_TOKEN, restoredToken, seedTrader as seed } from '../../server/src/testing/backupTrader';
import { testDialects } from '../../server/src/db/testing';
import { backgroundPairWriter, counts, seedPairs } from '../../server/src/testing/sqlitePairs';
import { startFakeS3, type FakeS3 } from '../fakes/s3/server';

const PASSPHRASE = 'a long backup passphrase kept off the server';
const FAST = { logN: 10, r: 8, p: 1 };
const T0 = Date.parse('2026-11-26T01:00:00Z');

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-backup-it-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const settings = (dataDir: string, to: string, extra: Partial<BackupSettings> = {}): BackupSettings => ({
  dataDir,
  databaseUrl: undefined,
  to,
  passphrase: PASSPHRASE,
  keep: 14,
  appVersion: 'test',
  now: () => T0,
  scrypt: FAST,
  ...extra,
});
const unlock = { kind: 'passphrase', passphrase: PASSPHRASE } as const;

describe('SQLite backup → restore', () => {
  it('round-trips into a fresh DATA_DIR, records the backup, and keeps nothing readable in the archive', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    const destination = join(tempDir(), 'offsite');
    const result = await runBackup(settings(dataDir, destination));

    const archive = join(destination, 'optionpilot-20261126T010000Z.opbackup');
    expect(result.destination).toBe(archive);
    const state = JSON.parse(readFileSync(join(dataDir, BACKUP_STATE_FILE), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(state).toEqual({
      at: '2026-11-26T01:00:00.000Z',
      destination: archive,
      bytes: result.bytes,
      sha256: result.sha256,
    });
    const bytes = readFileSync(archive);
    expect(bytes.length).toBe(result.bytes);
    expect(bytes.includes(Buffer.from('SQLite format 3'))).toBe(false);
    expect(
      bytes.includes(Buffer.from(readFileSync(join(dataDir, 'secrets/encryption.key'), 'utf8').trim())),
    ).toBe(false);
    expect(bytes.includes(Buffer.from('trader@example.com'))).toBe(false);
    // No plaintext staging is left in DATA_DIR.
    expect(readdirSync(dataDir).filter((n) => n.startsWith('.backup-staging'))).toEqual([]);

    const fresh = join(tempDir(), 'restored');
    const restored = await restoreArchive({ archive, unlock, dataDir: fresh, force: false, now: T0 });
    expect(restored.manifest.database).toBe('sqlite');
    expect(await restoredToken(fresh)).toBe(ACCESS_TOKEN);
    expect(readFileSync(join(fresh, 'secrets/jwt.key'))).toEqual(
      readFileSync(join(dataDir, 'secrets/jwt.key')),
    );

    const checks = await verifyArchive({ archive, unlock, now: T0 });
    expect(checks.map((c) => [c.name, c.ok])).toEqual([
      ['archive', true],
      ['integrity', true],
      ['tables', true],
      ['migrations', true],
      ['secrets', true],
      ['jwt key', true],
    ]);
    expect(checks.find((c) => c.name === 'tables')?.detail).toContain('users 1, broker_accounts 1');
    expect(checks.find((c) => c.name === 'secrets')?.detail).toContain('1 account');
  });

  it('snapshots a consistent state while another connection keeps writing', async () => {
    const dataDir = tempDir();
    seedPairs(dataDir, 2000).close();
    const writer = backgroundPairWriter(join(dataDir, 'optionpilot.sqlite3'));
    try {
      while (writer.written() < 200) await new Promise((done) => setTimeout(done, 5));
      const { destination: archive } = await runBackup(settings(dataDir, tempDir()));
      const fresh = join(tempDir(), 'restored');
      await restoreArchive({ archive, unlock, dataDir: fresh, force: false, now: T0 });
      const copied = counts(join(fresh, 'optionpilot.sqlite3'));
      // Whole transactions only (each adds one row to both tables), and the writer's commits up to the snapshot.
      expect(copied.a).toBe(copied.b);
      expect(copied.a).toBeGreaterThanOrEqual(2200);
    } finally {
      await writer.stop();
    }
  });

  it('also opens with the private half of BACKUP_PUBLIC_KEY, read from PEM files as openssl writes them', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    const keys = tempDir();
    const pair = generateKeyPairSync('x25519');
    writeFileSync(join(keys, 'backup.pub'), pair.publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(keys, 'backup.key'), pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const { destination: archive } = await runBackup(
      settings(dataDir, tempDir(), { publicKey: readPublicKeyFile(join(keys, 'backup.pub')) }),
    );
    const fresh = join(tempDir(), 'restored');
    const privateKey = readPrivateKeyFile(join(keys, 'backup.key'));
    await restoreArchive({
      archive,
      unlock: { kind: 'x25519', privateKey },
      dataDir: fresh,
      force: false,
      now: T0,
    });
    expect(await restoredToken(fresh)).toBe(ACCESS_TOKEN);
    expect(() => readPublicKeyFile(join(keys, 'backup.key'))).toThrow(
      /is a private key: keep it off the server/,
    );
  });

  it('removes the staging folder a killed backup left behind, but not one a running backup may own', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    for (const name of ['.backup-staging-killed', '.backup-staging-running']) {
      mkdirSync(join(dataDir, name));
      writeFileSync(join(dataDir, name, 'optionpilot.sqlite3'), 'plaintext');
    }
    const yesterday = new Date(Date.now() - 86_400_000);
    utimesSync(join(dataDir, '.backup-staging-killed'), yesterday, yesterday);
    await runBackup(settings(dataDir, tempDir(), { now: Date.now }));
    expect(readdirSync(dataDir).filter((n) => n.startsWith('.backup-staging'))).toEqual([
      '.backup-staging-running',
    ]);
  });

  it('refuses a wrong passphrase with a clear message and writes nothing', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    const { destination: archive } = await runBackup(settings(dataDir, tempDir()));
    const target = join(tempDir(), 'restored');
    await expect(
      restoreArchive({
        archive,
        unlock: { kind: 'passphrase', passphrase: 'not the passphrase!' },
        dataDir: target,
        force: false,
        now: T0,
      }),
    ).rejects.toThrow(/wrong passphrase/);
    expect(existsSync(target)).toBe(false);
    const empty = tempDir();
    await expect(
      restoreArchive({
        archive,
        unlock: { kind: 'passphrase', passphrase: 'not the passphrase!' },
        dataDir: empty,
        force: false,
        now: T0,
      }),
    ).rejects.toThrow(/wrong passphrase/);
    expect(readdirSync(empty)).toEqual([]);
  });

  it('refuses an altered archive, and the drill reports it as FAIL', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    const { destination: archive } = await runBackup(settings(dataDir, tempDir()));
    const bytes = readFileSync(archive);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] as number) ^ 0x80;
    writeFileSync(archive, bytes);
    const target = join(tempDir(), 'restored');
    await expect(restoreArchive({ archive, unlock, dataDir: target, force: false, now: T0 })).rejects.toThrow(
      /altered/,
    );
    expect(existsSync(target)).toBe(false);
    const checks = await verifyArchive({ archive, unlock, now: T0 });
    expect(checks).toEqual([
      { ok: false, name: 'archive', detail: expect.stringMatching(/altered/) as unknown },
    ]);
  });

  it('refuses a non-empty DATA_DIR unless forced, then keeps the replaced files aside', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    const { destination: archive } = await runBackup(settings(dataDir, tempDir()));
    const target = tempDir();
    const old = new BetterSqlite3(join(target, 'optionpilot.sqlite3'));
    old.exec("CREATE TABLE marker (note TEXT); INSERT INTO marker VALUES ('old database')");
    old.close();
    const oldNote = (file: string) => {
      const db = new BetterSqlite3(file, { readonly: true });
      try {
        return (db.prepare('SELECT note FROM marker').get() as { note: string }).note;
      } finally {
        db.close();
      }
    };
    await expect(restoreArchive({ archive, unlock, dataDir: target, force: false, now: T0 })).rejects.toThrow(
      /not empty/,
    );
    expect(oldNote(join(target, 'optionpilot.sqlite3'))).toBe('old database');
    const { aside } = await restoreArchive({ archive, unlock, dataDir: target, force: true, now: T0 });
    expect(aside).toBe(join(target, 'pre-restore-20261126T010000Z'));
    expect(oldNote(join(aside as string, 'optionpilot.sqlite3'))).toBe('old database');
    expect(await restoredToken(target)).toBe(ACCESS_TOKEN);
  });

  it('the drill fails when the archived key does not decrypt the stored broker credentials', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    writeFileSync(join(dataDir, 'secrets/encryption.key'), `${randomBytes(32).toString('base64')}\n`);
    const { destination: archive } = await runBackup(settings(dataDir, tempDir()));
    const checks = await verifyArchive({ archive, unlock, now: T0 });
    expect(checks.find((c) => c.name === 'secrets')).toEqual({
      ok: false,
      name: 'secrets',
      detail: 'the encryption key does not decrypt the stored broker credentials',
    });
  });

  it('keeps the newest N archives at the destination and leaves other files alone', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    const destination = tempDir();
    writeFileSync(join(destination, 'notes.txt'), 'mine');
    const pruned: string[][] = [];
    for (let day = 0; day < 4; day += 1) {
      const result = await runBackup(
        settings(dataDir, destination, { keep: 2, now: () => T0 + day * 86_400_000 }),
      );
      pruned.push(result.pruned);
    }
    expect(readdirSync(destination).sort()).toEqual([
      'notes.txt',
      'optionpilot-20261128T010000Z.opbackup',
      'optionpilot-20261129T010000Z.opbackup',
    ]);
    expect(pruned).toEqual([
      [],
      [],
      ['optionpilot-20261126T010000Z.opbackup'],
      ['optionpilot-20261127T010000Z.opbackup'],
    ]);
  });
});

describe('S3-compatible destination', () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startFakeS3({ pageSize: 2 });
  });
  afterAll(async () => {
    await s3.close();
  });
  const keys = () => ({
    endpoint: s3.url,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });

  it('uploads, lists across pages, prunes, downloads the newest and restores it', async () => {
    const dataDir = tempDir();
    await seed(dataDir);
    const bucket = s3.objects.get('backups') as Map<string, Buffer>;
    bucket.set('elsewhere/optionpilot-20200101T000000Z.opbackup', Buffer.from('another prefix'));
    for (let day = 0; day < 4; day += 1) {
      await runBackup(
        settings(dataDir, 's3://backups/nightly', { keep: 3, s3: keys(), now: () => T0 + day * 86_400_000 }),
      );
    }
    expect([...bucket.keys()].sort()).toEqual([
      'elsewhere/optionpilot-20200101T000000Z.opbackup',
      'nightly/optionpilot-20261127T010000Z.opbackup',
      'nightly/optionpilot-20261128T010000Z.opbackup',
      'nightly/optionpilot-20261129T010000Z.opbackup',
    ]);
    const state = JSON.parse(readFileSync(join(dataDir, BACKUP_STATE_FILE), 'utf8')) as {
      destination: string;
    };
    expect(state.destination).toBe('s3://backups/nightly/optionpilot-20261129T010000Z.opbackup');
    // Three archives and a page size of 2: the listing needed a continuation token.
    expect(s3.requests.some((r) => r.path.includes('continuation-token='))).toBe(true);

    const archive = await fetchArchive(undefined, 's3://backups/nightly', keys(), tempDir());
    expect(archive.endsWith('optionpilot-20261129T010000Z.opbackup')).toBe(true);
    const fresh = join(tempDir(), 'restored');
    await restoreArchive({ archive, unlock, dataDir: fresh, force: false, now: T0 });
    expect(await restoredToken(fresh)).toBe(ACCESS_TOKEN);
  });

  it('reports a refused signature as an S3 error, without the secret', async () => {
    const store = openStore('s3://backups/nightly', { ...keys(), secretAccessKey: 'wrong-secret-value' });
    const failure = await store.list().catch((err: unknown) => err as Error);
    expect(String(failure)).toMatch(/S3 list answered 403 SignatureDoesNotMatch/);
    expect(String(failure)).not.toContain('wrong-secret-value');
  });
});

// PostgreSQL when TEST_DATABASE_URL is set: a uniquely named source database and a fresh target, both dropped.
describe.each(testDialects().filter((d) => d === 'postgres'))('%s backup → restore', () => {
  const server = process.env.TEST_DATABASE_URL as string;
  const source = `optionpilot_bk_src_${randomBytes(4).toString('hex')}`;
  const target = `optionpilot_bk_dst_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    await createPostgresDatabase(server, source);
    await createPostgresDatabase(server, target);
  });
  afterAll(async () => {
    await dropPostgresDatabase(server, source);
    await dropPostgresDatabase(server, target);
  });

  it('wraps pg_dump, restores with pg_restore into a fresh database, and passes the drill', async () => {
    const dataDir = tempDir();
    mkdirSync(dataDir, { recursive: true });
    await seed(dataDir, databaseUrlFor(server, source));
    const { destination: archive } = await runBackup(
      settings(dataDir, tempDir(), { databaseUrl: databaseUrlFor(server, source) }),
    );
    expect(readFileSync(archive).includes(Buffer.from('PGDMP'))).toBe(false);

    const fresh = join(tempDir(), 'restored');
    const restored = await restoreArchive({
      archive,
      unlock,
      dataDir: fresh,
      databaseUrl: databaseUrlFor(server, target),
      force: false,
      now: T0,
    });
    expect(restored.manifest.database).toBe('postgres');
    expect(existsSync(join(fresh, 'optionpilot.sqlite3'))).toBe(false);
    expect(await restoredToken(fresh, databaseUrlFor(server, target))).toBe(ACCESS_TOKEN);

    // The target now has tables: a second restore into it is refused.
    await expect(
      restoreArchive({
        archive,
        unlock,
        dataDir: join(tempDir(), 'again'),
        databaseUrl: databaseUrlFor(server, target),
        force: false,
        now: T0,
      }),
    ).rejects.toThrow(/already has \d+ tables/);

    const checks = await verifyArchive({ archive, unlock, databaseUrl: server, now: T0 });
    expect(checks.every((c) => c.ok)).toBe(true);
    expect(checks.find((c) => c.name === 'tables')?.detail).toContain('users 1, broker_accounts 1');
  });
});
