// `npm run doctor` as an operator runs it: tsx, the environment plus `--env-file` (read the way systemd reads
// EnvironmentFile=), the report on stdout and the exit code a cron job acts on.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFakeNtp } from '../fakes/ntp/server';

const ROOT = resolve(import.meta.dirname, '../..');
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function doctor(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/doctor.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout }));
  });
}

it('reads --env-file over the environment, reports each check on its own line and exits 1 on a FAIL', async () => {
  const root = mkdtempSync(join(tmpdir(), 'optionpilot-doctor-cli-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const ntp = await startFakeNtp();
  cleanups.push(() => ntp.close());
  const envFile = join(root, 'env');
  // a value with spaces, unquoted, as systemd's EnvironmentFile= allows; and a mode that lets anyone read secrets
  writeFileSync(
    envFile,
    `DATA_DIR=${join(root, 'data')}\nEGRESS_IP=203.0.113.10\nOPERATOR_LEGAL_NAME=Example Algo Technologies Pvt Ltd\nNTP_SERVER=${ntp.address}\n`,
  );
  chmodSync(envFile, 0o644);

  const { code, stdout } = await doctor({ EGRESS_IP: '198.51.100.1' }, '--env-file', envFile);

  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(13); // twelve checks and the tally
  expect(lines.find((l) => l.includes(' egress-ip '))).toMatch(/^OK .*EGRESS_IP 203\.0\.113\.10/);
  expect(lines.find((l) => l.includes(' operator '))).not.toMatch(/OPERATOR_LEGAL_NAME/);
  expect(lines.find((l) => l.includes(' clock '))).toMatch(new RegExp(`against ${ntp.address}`));
  expect(lines.find((l) => l.includes(' file-modes '))).toMatch(new RegExp(`^FAIL .*${envFile} 0644`));
  expect(lines.at(-1)).toMatch(/ [1-9]\d* FAIL$/);
  expect(code).toBe(1);
});
