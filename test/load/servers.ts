// The servers bench:live measures: the real product (`node server/dist/main.js`, built if stale) with a temporary
// DATA_DIR and the settings production starts with, its signed-in users, and the bare Socket.IO server that
// broadcasts the same payload at the same rate (the baseline).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions } from './args';
import { forkTs, freePort, isRecord, log, nextMessage, ROOT, sleep, tempDir, track } from './children';
import type { BareServerReport } from './protocol';

const SERVER_MAIN = join(ROOT, 'server/dist/main.js');
const BENCH_PASSWORD = 'BenchPassw0rd';

/** The product's settings for the run; the baseline copies the tick interval they imply. */
export const PRODUCT_ENV = {
  SIM_SPEED: '1',
  SIM_SEED: '20260101',
  SIM_SESSION: 'always',
  FEED: 'sim',
  TICK_BROADCAST_MS: '250',
  // As production starts the server (deploy/optionpilot.service, Dockerfile, scripts/start.mjs): one malloc arena
  // and a 1 GiB V8 old generation.
  MALLOC_ARENA_MAX: '1',
  NODE_OPTIONS: '--max-old-space-size=1024',
} as const;
/** The simulated feed ticks once per virtual second (engine/src/feeds/simulatedFeed.ts, `tickIntervalMs`). */
const SIM_TICK_INTERVAL_MS = 1000;

/** How often the product broadcasts a tick with PRODUCT_ENV: the bare server broadcasts at the same interval. */
export const BROADCAST_INTERVAL_MS = Math.max(
  SIM_TICK_INTERVAL_MS / Number(PRODUCT_ENV.SIM_SPEED),
  Number(PRODUCT_ENV.TICK_BROADCAST_MS),
);

/** The bare server ignores auth, but its clients send a token anyway so they do exactly the same work. */
export const BARE_TOKENS: readonly string[] = ['bare-server-ignores-this-token'];

export function buildServer(): void {
  log('building the server if stale (scripts/build.mjs --server-only)');
  // stdout of the build goes to our stderr: with --json, stdout carries only the result.
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--server-only'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
    timeout: 180_000,
  });
  if (result.status !== 0 || !existsSync(SERVER_MAIN)) {
    throw new Error(
      `the server build failed (exit ${result.status}); run npm run build -- --server-only to see why`,
    );
  }
}

export interface Product {
  child: ChildProcess;
  url: string;
  logFile: string;
  /** epoch ms of the spawn, ≈ the start of a --cpu-prof profile */
  spawnedAt: number;
}

export async function startProduct(options: BenchOptions, profileDir: string | null): Promise<Product> {
  const dataDir = tempDir('optionpilot-bench-');
  const port = await freePort();
  const logFile = join(dataDir, 'server.log');
  const fd = openSync(logFile, 'a');
  // A minimal environment on purpose: an inherited DATABASE_URL, SMTP_URL or Razorpay key would send the bench's
  // traffic somewhere other than this machine.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: options.logLevel,
    ...PRODUCT_ENV,
  };
  const nodeArgs = ['--enable-source-maps'];
  if (profileDir !== null) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  const spawnedAt = Date.now();
  const child = track(
    spawn(process.execPath, [...nodeArgs, SERVER_MAIN], { cwd: ROOT, env, stdio: ['ignore', fd, fd] }),
  );
  closeSync(fd);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        log(`product up at ${url} (pid ${child.pid}, log ${logFile})`);
        return { child, url, logFile, spawnedAt };
      }
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`the product did not become healthy within 60 s; its log:\n${tail(logFile, 20)}`);
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function postJson(
  url: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json: unknown = await res.json().catch(() => ({}));
  return { status: res.status, json: isRecord(json) ? json : {} };
}

/** Registers `count` users and signs each in; returns one token per user (every socket authenticates with one). */
export async function signInUsers(url: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = `bench${i}@bench.example.com`;
    const registered = await postJson(`${url}/api/auth/register`, {
      firstName: 'Bench',
      lastName: `User ${i}`,
      email,
      phone: `98765${String(10_000 + i).slice(-5)}`,
      password: BENCH_PASSWORD,
    });
    if (registered.status !== 201) {
      throw new Error(`registering ${email} failed: ${registered.status} ${JSON.stringify(registered.json)}`);
    }
    const login = await postJson(`${url}/api/auth/login`, { email, password: BENCH_PASSWORD });
    if (login.status !== 200 || typeof login.json.token !== 'string') {
      throw new Error(`signing in ${email} failed: ${login.status} ${JSON.stringify(login.json)}`);
    }
    tokens.push(login.json.token);
  }
  log(`${count} users registered and signed in`);
  return tokens;
}

/** The bare Socket.IO server (bare-server.ts) broadcasting every `intervalMs`; resolves once it listens. */
export async function startBareServer(intervalMs: number): Promise<{ child: ChildProcess; url: string }> {
  const child = forkTs('bare-server.ts', [String(intervalMs)]);
  const port = await nextMessage<number>(child, 'bare server starting', 30_000, (m) =>
    isRecord(m) && m.type === 'listening' ? (m as unknown as BareServerReport).port : undefined,
  );
  log(`bare server up at 127.0.0.1:${port} (pid ${child.pid}), broadcasting every ${intervalMs} ms`);
  return { child, url: `http://127.0.0.1:${port}` };
}
