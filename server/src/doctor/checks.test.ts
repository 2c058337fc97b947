import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCalendarData } from '@optionpilot/engine';
import calendarJson from '../../../engine/data/nse-calendar.json' with { type: 'json' };
import { startFakeNtp } from '../../../test/fakes/ntp/server';
import { startFakeSmtp } from '../../../test/fakes/smtp/server';
import { loadConfig } from '../config';
import { closeDatabase, insertUser, migrateLatest, openDatabase, type Database } from '../db';
import { backupAgeCheck, BACKUP_STATE_FILE } from './backupAge';
import { brokerSessionsCheck } from './brokerSessions';
import { calendarCheck } from './calendar';
import { clockCheck } from './clock';
import { diskVerdict } from './disk';
import { razorpayCheck } from './razorpay';
import { smtpCheck } from './smtp';
import { parseNtpServer, querySntp, readNtpTime, writeNtpTime } from './sntp';
import type { DoctorContext } from './types';

const NOW = Date.parse('2026-11-26T04:00:00Z');
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-checks-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function context(env: Record<string, string>, extra: Partial<DoctorContext> = {}): DoctorContext {
  return {
    config: loadConfig({ DATA_DIR: tempDir(), ...env }),
    db: undefined,
    databaseProblem: undefined,
    now: NOW,
    clock: () => NOW,
    timeoutMs: 500,
    envFile: '/nonexistent/env',
    ...extra,
  };
}

/** A TCP port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('SNTP', () => {
  it('writes and reads NTP timestamps (1900 epoch, 32-bit fraction) to well under a millisecond', () => {
    const buf = Buffer.alloc(8);
    writeNtpTime(buf, 0, Date.parse('2026-11-26T04:00:00.250Z'));
    expect(buf.readUInt32BE(0)).toBe(Date.parse('2026-11-26T04:00:00Z') / 1000 + 2_208_988_800);
    expect(buf.readUInt32BE(4)).toBe(2 ** 30); // a quarter second
    expect(readNtpTime(buf, 0) - Date.parse('2026-11-26T04:00:00.250Z')).toBeCloseTo(0, 3);
  });

  it('parses host, host:port and [v6]:port', () => {
    expect(parseNtpServer('pool.ntp.org')).toEqual({ host: 'pool.ntp.org', port: 123 });
    expect(parseNtpServer('127.0.0.1:4123')).toEqual({ host: '127.0.0.1', port: 4123 });
    expect(parseNtpServer('[::1]:4123')).toEqual({ host: '::1', port: 4123 });
  });

  it("measures the offset against the fake server and rejects a kiss-o'-death", async () => {
    const ntp = await startFakeNtp({ now: () => NOW - 1234 });
    cleanups.push(() => ntp.close());
    const result = await querySntp(ntp.address, { timeoutMs: 1000, now: () => NOW });
    expect(result.offsetMs).toBeCloseTo(-1234, 2);
    expect(result.delayMs).toBeCloseTo(0, 2);
    expect(result.stratum).toBe(2);

    const kiss = await startFakeNtp({ mode: 'kiss' });
    cleanups.push(() => kiss.close());
    await expect(querySntp(kiss.address, { timeoutMs: 1000 })).rejects.toThrow(/kiss code RATE/);
  });
});

describe('clock check', () => {
  it.each([
    [40, 'OK', /offset \+40 ms/],
    [-600, 'WARN', /offset -600 ms .*more than 250 ms/],
    [2500, 'FAIL', /offset \+2500 ms .*more than 2000 ms/],
  ] as const)('an offset of %i ms is %s', async (offset, status, message) => {
    const ntp = await startFakeNtp({ now: () => NOW + offset });
    cleanups.push(() => ntp.close());
    const result = await clockCheck.run(context({ NTP_SERVER: ntp.address }));
    expect(result.status).toBe(status);
    expect(result.message).toMatch(message);
    if (status !== 'OK') expect(result.fix).toMatch(/timedatectl set-ntp true/);
  });

  it('is a WARN, not a FAIL, when the NTP server does not answer', async () => {
    const ntp = await startFakeNtp({ mode: 'silent' });
    cleanups.push(() => ntp.close());
    const result = await clockCheck.run(context({ NTP_SERVER: ntp.address }));
    expect(result).toMatchObject({
      status: 'WARN',
      message: expect.stringMatching(/no answer within 500 ms/),
    });
    expect(ntp.requests()).toBe(1);
  });
});

describe('calendar check', () => {
  const bundled = parseCalendarData(calendarJson);
  const year2026 = bundled.years['2026'];
  if (year2026 === undefined) throw new Error('the bundled calendar lost 2026');
  const onlyThisYear = calendarCheck({ ...bundled, years: { '2026': year2026 } });
  const at = (iso: string) => context({}, { now: Date.parse(iso) });

  it('is OK in November without next year, WARNs in December, and FAILs once the year has no holidays', async () => {
    expect((await onlyThisYear.run(at('2026-11-30T06:00:00Z'))).status).toBe('OK');
    const december = await onlyThisYear.run(at('2026-12-01T06:00:00Z'));
    expect(december).toMatchObject({ status: 'WARN', message: expect.stringMatching(/2027 missing/) });
    expect(december.fix).toMatch(/add the 2027 NSE holiday list .*engine\/data\/nse-calendar\.json/);
    expect((await onlyThisYear.run(at('2027-01-04T04:00:00Z'))).status).toBe('FAIL');
  });

  it('is OK in December once next year is in the file', async () => {
    const both = calendarCheck({ ...bundled, years: { '2026': year2026, '2027': year2026 } });
    expect(await both.run(at('2026-12-15T06:00:00Z'))).toMatchObject({
      status: 'OK',
      message: 'NSE holidays known for 2026 and 2027',
    });
  });
});

describe('backup check', () => {
  const withState = (state: string | undefined) => {
    const ctx = context({});
    if (state !== undefined) writeFileSync(join(ctx.config.dataDir, BACKUP_STATE_FILE), state);
    return ctx;
  };
  const state = (at: number | string) =>
    JSON.stringify({
      at,
      destination: '/var/backups/optionpilot',
      bytes: 3_145_728,
      sha256: 'ab'.repeat(32),
    });

  it('is OK for a backup from last night, WARNs after 26 hours, without one and for an unreadable state', async () => {
    expect(await backupAgeCheck.run(withState(state(NOW - 2 * 3_600_000)))).toMatchObject({
      status: 'OK',
      message: expect.stringMatching(
        /2026-11-26 07:30:00 IST \(2\.0 h ago\) to \/var\/backups\/optionpilot, 3\.0 MB/,
      ),
    });
    expect(
      await backupAgeCheck.run(withState(state(new Date(NOW - 27 * 3_600_000).toISOString()))),
    ).toMatchObject({
      status: 'WARN',
      message: expect.stringMatching(/27\.0 h ago.*older than 26 h/),
    });
    expect(await backupAgeCheck.run(withState(undefined))).toMatchObject({
      status: 'WARN',
      message: 'no backup yet',
    });
    expect((await backupAgeCheck.run(withState('{"at":"yesterday"}'))).status).toBe('WARN');
  });
});

describe('broker sessions check', () => {
  async function database(): Promise<Database> {
    const db = openDatabase({ dataDir: tempDir() });
    cleanups.push(() => closeDatabase(db));
    await migrateLatest(db);
    return db;
  }
  async function account(db: Database, email: string, status: string, expiresAt: number | null) {
    const user = await insertUser(db.knex, { email, first_name: 'T', last_name: 'A', password_hash: 'x' });
    await db.knex('broker_accounts').insert({
      user_id: user.id,
      broker_type: 'zerodha',
      api_key_enc: 'sealed',
      api_secret_enc: 'sealed',
      api_key_last4: 'abcd',
      status,
      token_expires_at: expiresAt,
      created_at: NOW,
      updated_at: NOW,
    });
  }

  it('counts valid, expired and errored sessions and shows the first end in IST', async () => {
    const db = await database();
    const sixAmIst = Date.parse('2026-11-27T00:30:00Z');
    await account(db, 't1@example.com', 'connected', sixAmIst);
    await account(db, 't2@example.com', 'connected', sixAmIst + 3_600_000);
    expect(await brokerSessionsCheck.run(context({}, { db }))).toMatchObject({
      status: 'OK',
      message:
        '2 connected, the first ends 2026-11-27 06:00:00 IST; 0 expired, 0 in error, 0 blocked for the IP',
    });

    await account(db, 't3@example.com', 'connected', NOW - 1); // its end passed: expired though the row says connected
    await account(db, 't4@example.com', 'expired', null);
    const expired = await brokerSessionsCheck.run(context({}, { db }));
    expect(expired).toMatchObject({
      status: 'WARN',
      message: expect.stringMatching(/2 connected.*; 2 expired, 0 in error/),
    });
    expect(expired.fix).toMatch(/Reconnect/);
  });

  it("WARNs when a broker FEED's FEED_ACCOUNT is not connected: the whole market feed depends on it", async () => {
    const db = await database();
    const env = { FEED: 'kite', FEED_ACCOUNT: 'Feed@Example.com' };
    expect(await brokerSessionsCheck.run(context(env, { db }))).toMatchObject({
      status: 'WARN',
      message: 'FEED=kite: FEED_ACCOUNT feed@example.com has no account, so the market feed is down',
    });
    await account(db, 'feed@example.com', 'connected', NOW + 3_600_000);
    expect((await brokerSessionsCheck.run(context(env, { db }))).status).toBe('OK');
    expect((await brokerSessionsCheck.run(context(env, { db, now: NOW + 7_200_000 }))).message).toMatch(
      /feed@example\.com is not connected/,
    );
  });
});

describe('disk verdict', () => {
  it('is OK with room, WARNs under 2 GiB or 10 %, FAILs under 256 MiB', () => {
    const gib = 1024 ** 3;
    expect(diskVerdict('/d', 40 * gib, 100 * gib).status).toBe('OK');
    expect(diskVerdict('/d', 5 * gib, 100 * gib).status).toBe('WARN');
    expect(diskVerdict('/d', 1.5 * gib, 4 * gib).status).toBe('WARN');
    expect(diskVerdict('/d', 100 * 1024 ** 2, 4 * gib)).toMatchObject({
      status: 'FAIL',
      message: expect.stringMatching(/^0\.1 GiB free \(2 %\) at \/d/),
    });
  });
});

describe('SMTP check', () => {
  it('is OK when the server greets and answers EHLO, and never prints the credentials', async () => {
    const smtp = await startFakeSmtp();
    cleanups.push(() => smtp.close());
    const result = await smtpCheck.run(
      context({ SMTP_URL: `smtp://mailer:s3cret-pass@127.0.0.1:${smtp.port}` }),
    );
    expect(result).toMatchObject({ status: 'OK', message: `127.0.0.1:${smtp.port} greets and answers EHLO` });
    expect(JSON.stringify(result)).not.toMatch(/s3cret|mailer/);
  });

  it('WARNs when nothing listens', async () => {
    const port = await closedPort();
    const result = await smtpCheck.run(context({ SMTP_URL: `smtp://127.0.0.1:${port}` }));
    expect(result).toMatchObject({
      status: 'WARN',
      message: expect.stringMatching(/not reachable: .*ECONNREFUSED/),
    });
  });
});

describe('Razorpay check', () => {
  async function apiRoot(): Promise<string> {
    const server: Server = createServer((_req, res) => res.writeHead(404).end('{"error":"not found"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const keys = (id: string, root: string, webhook = true) => ({
    RAZORPAY_KEY_ID: id,
    RAZORPAY_KEY_SECRET: 'secret-123456',
    ...(webhook ? { RAZORPAY_WEBHOOK_SECRET: 'whsec-123456' } : {}),
    RAZORPAY_API_ROOT: root,
  });

  it('is OK with reachable live keys, WARNs for test keys, a missing webhook secret and an unreachable API', async () => {
    const root = await apiRoot();
    expect(await razorpayCheck.run(context(keys('rzp_live_abc', root)))).toMatchObject({
      status: 'OK',
      message: `live keys; ${root} answers (HTTP 404)`,
    });
    expect(await razorpayCheck.run(context(keys('rzp_test_abc', root)))).toMatchObject({
      status: 'WARN',
      message: expect.stringMatching(/^test keys/),
    });
    expect((await razorpayCheck.run(context(keys('rzp_live_abc', root, false)))).message).toMatch(
      /RAZORPAY_WEBHOOK_SECRET unset/,
    );
    const down = `http://127.0.0.1:${await closedPort()}`;
    expect(await razorpayCheck.run(context(keys('rzp_live_abc', down)))).toMatchObject({
      status: 'WARN',
      message: expect.stringMatching(/not reachable/),
    });
  });
});
