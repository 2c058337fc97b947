#!/usr/bin/env node
// `npm run deploy:check-image`: builds the Dockerfile and proves the image runs — the container's own HEALTHCHECK
// turns healthy, /api/health answers 200 through the published port, the server runs as a non-root user and the
// DATA_DIR volume is private (0700). Configured from deploy/env.example, so the example must also be a valid
// production configuration. Needs a Docker daemon that can reach (or already holds) node:20-bookworm-slim; without
// one it says so and exits 2 — it never reports an image it did not build as checked.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TAG = 'optionpilot:deploy-check';
const HEALTHY_WITHIN_MS = 180_000;

const log = (m) => console.error(`deploy:check-image: ${m}`);
const docker = (args, options = {}) => execFileSync('docker', args, { encoding: 'utf8', ...options }).trim();

function notChecked(reason) {
  log(`${reason}\nThe image was NOT built or checked.`);
  process.exit(2);
}

const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
if (info.error) notChecked('the docker command is not installed.');
if (info.status !== 0) notChecked(`no Docker daemon answers: ${info.stderr.trim().split('\n').pop()}`);
log(`Docker ${info.stdout.trim()}; building ${TAG} (the base image is pulled if missing)`);

const build = spawnSync('docker', ['build', '--tag', TAG, ROOT], { stdio: 'inherit' });
if (build.status !== 0) {
  log('docker build failed (see above).');
  process.exit(1);
}

// The example's settings minus those the image itself fixes (listen address, port, data volume).
const IMAGE_OWNED = new Set(['HOST', 'PORT', 'DATA_DIR']);
const envLines = readFileSync(join(ROOT, 'deploy/env.example'), 'utf8')
  .split('\n')
  .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line) && !IMAGE_OWNED.has(line.split('=')[0]));
const work = mkdtempSync(join(tmpdir(), 'op-image-'));
const envFile = join(work, 'env');
writeFileSync(envFile, `${envLines.join('\n')}\n`, { mode: 0o600 });
const volume = `op-deploy-check-${process.pid}`;

let container = '';
let failed = false;
const check = (ok, what) => {
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
};
try {
  container = docker([
    'run',
    '--detach',
    '--init',
    '--publish',
    '127.0.0.1::3000',
    '--env-file',
    envFile,
    '--volume',
    `${volume}:/data`,
    TAG,
  ]);
  const deadline = Date.now() + HEALTHY_WITHIN_MS;
  let health = 'starting';
  while (health === 'starting' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 2000));
    health = docker(['inspect', '--format', '{{.State.Health.Status}}', container]);
  }
  check(health === 'healthy', `HEALTHCHECK status is "${health}"`);
  const port = docker(['port', container, '3000/tcp']).split('\n')[0].split(':').pop();
  const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch((e) => ({ status: String(e) }));
  check(res.status === 200, `GET /api/health through the published port answered ${res.status}`);
  const uid = docker(['exec', container, 'id', '-u']);
  check(uid !== '0', `the server runs as uid ${uid}`);
  const mode = docker(['exec', container, 'stat', '-c', '%a', '/data']);
  check(mode === '700', `DATA_DIR /data has mode ${mode}`);
  if (failed) log(`container log:\n${docker(['logs', '--tail', '40', container], { stdio: 'pipe' })}`);
} catch (err) {
  failed = true;
  log(`check aborted: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  if (container) spawnSync('docker', ['rm', '--force', container], { stdio: 'ignore' });
  spawnSync('docker', ['volume', 'rm', volume], { stdio: 'ignore' });
  rmSync(work, { recursive: true, force: true });
}
log(failed ? 'the image is NOT healthy' : `${TAG} builds and runs healthy`);
process.exit(failed ? 1 : 0);
