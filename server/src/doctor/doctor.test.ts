import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeNtp, type FakeNtp } from '../../../test/fakes/ntp/server';
import { closeDatabase, migrateLatest, openDatabase } from '../db';
import { doctorMain } from './doctor';

const NOW = Date.parse('2026-11-26T04:00:00Z'); // 09:30 IST, a Thursday in a year the calendar covers

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh install: an empty DATA_DIR with the database created and migrated, as the first start leaves it minus keys. */
async function freshInstall(): Promise<{ dataDir: string; envFile: string }> {
  const root = mkdtempSync(join(tmpdir(), 'optionpilot-doctor-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = join(root, 'data');
  const db = openDatabase({ dataDir });
  await migrateLatest(db);
  await closeDatabase(db);
  return { dataDir, envFile: join(root, 'env') };
}

/** A fake NTP server whose clock runs `offsetMs` ahead of ours (both fixed, so the offset is exact). */
async function ntpAhead(offsetMs: number): Promise<FakeNtp> {
  const ntp = await startFakeNtp({ now: () => NOW + offsetMs });
  cleanups.push(() => ntp.close());
  return ntp;
}

/** Runs doctorMain with `env` over the install's DATA_DIR and clock source; the report's lines by check name. */
async function doctor(env: Record<string, string>, envFile: string) {
  const lines: string[] = [];
  const code = await doctorMain({
    env,
    write: (l) => lines.push(l),
    now: NOW,
    clock: () => NOW,
    timeoutMs: 1000,
    envFile,
  });
  const byName = new Map(lines.map((l) => [l.slice(5).split(' ')[0] ?? '', l]));
  return { code, lines, line: (name: string) => byName.get(name) ?? `(no ${name} line)` };
}

/** A fresh install, an NTP source `offsetMs` off, and `run(env)`: the doctor on both with `env` added. */
async function installed(offsetMs = 0) {
  const install = await freshInstall();
  const ntp = await ntpAhead(offsetMs);
  const run = (env: Record<string, string> = {}) =>
    doctor({ DATA_DIR: install.dataDir, NTP_SERVER: ntp.address, ...env }, install.envFile);
  return { ...install, ntp, run };
}

describe('npm run doctor', () => {
  it('on a fresh install warns about what an operator still has to do, with the fix, and exits 0', async () => {
    const { ntp, run } = await installed(40);
    const report = await run({ NODE_ENV: 'development' });

    expect(report.code).toBe(0);
    expect(report.line('clock')).toMatch(new RegExp(`^OK   clock +offset \\+40 ms against ${ntp.address}`));
    expect(ntp.requests()).toBe(1);
    expect(report.line('calendar')).toMatch(/^OK .*NSE holidays known for 2026/);
    expect(report.line('database')).toMatch(/^OK .*sqlite answers, migrations current/);
    expect(report.line('broker-sessions')).toMatch(/^OK .*no broker connections yet/);
    expect(report.line('file-modes')).toMatch(/^OK /);
    for (const [name, finding, fix] of [
      [
        'operator',
        'still placeholders: OPERATOR_LEGAL_NAME, OPERATOR_ADDRESS, OPERATOR_GSTIN',
        'in the env file',
      ],
      ['egress-ip', 'EGRESS_IP is not set', 'curl -4 ifconfig.me'],
      ['backup', 'no backup yet', 'systemctl enable --now optionpilot-backup.timer'],
      ['secrets', 'not generated yet: secrets/jwt.key, secrets/encryption.key', 'start the server once'],
      ['smtp', 'SMTP_URL is not set', 'set SMTP_URL='],
      ['razorpay', 'payment test mode', 'set RAZORPAY_KEY_ID'],
    ] as const) {
      expect(report.line(name)).toMatch(
        new RegExp(`^WARN ${name} +.*${finding}.* — fix: .*${fix.replace(/[.*+?()|[\]\\]/g, '\\$&')}`),
      );
    }
    expect(report.lines.at(-1)).toMatch(/^\d+ OK, \d+ WARN, 0 FAIL$/);
  });

  it('FAILs and exits 1 when a secret is open to other users', async () => {
    const { dataDir, run } = await installed();
    mkdirSync(join(dataDir, 'secrets'), { mode: 0o700 });
    writeFileSync(join(dataDir, 'secrets/jwt.key'), 'a2V5\n');
    chmodSync(join(dataDir, 'secrets/jwt.key'), 0o666);
    // every file in secrets/ counts, not only the keys known today
    writeFileSync(join(dataDir, 'secrets/payment-test.key'), 'a2V5\n');
    chmodSync(join(dataDir, 'secrets/payment-test.key'), 0o604);

    const report = await run();

    expect(report.code).toBe(1);
    expect(report.line('file-modes')).toMatch(/^FAIL file-modes .*secrets\/jwt\.key 0666.* — fix: chmod/);
    expect(report.line('file-modes')).toMatch(/secrets\/payment-test\.key 0604/);
    expect(report.lines.at(-1)).toMatch(/, 1 FAIL$/);
  });

  it('only WARNs when the group can read the data directory, and FAILs for a world-readable env file', async () => {
    const { dataDir, envFile, run } = await installed();
    chmodSync(dataDir, 0o750);
    expect((await run()).line('file-modes')).toMatch(/^WARN file-modes .*open to the group: .*data 0750/);

    writeFileSync(envFile, 'NODE_ENV=production\n');
    chmodSync(envFile, 0o644);
    const report = await run();
    expect(report.code).toBe(1);
    expect(report.line('file-modes')).toMatch(new RegExp(`^FAIL .*${envFile} 0644`));
  });

  it('FAILs operator details in production, where the server would refuse to start', async () => {
    const report = await (await installed()).run({ NODE_ENV: 'production' });
    expect(report.code).toBe(1);
    expect(report.line('operator')).toMatch(/^FAIL operator .*refuses to start in production/);
  });

  it('shows EGRESS_IP when set', async () => {
    const report = await (await installed()).run({ EGRESS_IP: '203.0.113.10' });
    expect(report.line('egress-ip')).toMatch(/^OK {3}egress-ip +EGRESS_IP 203\.0\.113\.10/);
  });

  it('reports an invalid configuration as one FAIL line naming the variable', async () => {
    const { dataDir, envFile } = await freshInstall();
    const report = await doctor({ DATA_DIR: dataDir, NTP_SERVER: 'not a host!' }, envFile);
    expect(report.code).toBe(1);
    expect(report.lines).toHaveLength(1);
    expect(report.lines[0]).toMatch(/^FAIL config .*NTP_SERVER: must be a host name/);
  });
});
