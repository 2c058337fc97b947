// The real product as a child process for the fault trials: `node server/dist/main.js` on a given DATA_DIR with
// the simulated market, started, killed with SIGKILL and started again on the same files. Only the process
// boundary is used (HTTP and the database file), so the trials keep working whatever the engine looks like inside.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { closeDatabase, openDatabase, setAdminControl } from '@optionpilot/server/db/index';

export const ROOT = resolve(import.meta.dirname, '../..');
const SERVER_MAIN = join(ROOT, 'server/dist/main.js');

/** Builds server/dist/main.js if it is missing or stale (scripts/build.mjs decides); one build serves every run. */
export function buildServer(): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--server-only'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  if (result.status !== 0 || !existsSync(SERVER_MAIN)) throw new Error('the server build failed');
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

export interface ProductOptions {
  dataDir: string;
  port: number;
  /** extra environment (SIM_SPEED, SIM_SEED, …) */
  env?: Record<string, string>;
}

export interface Product {
  readonly child: ChildProcess;
  readonly url: string;
  /** resolves when the process has exited, however */
  readonly exited: Promise<void>;
  kill(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Spawns the server (appending its output to DATA_DIR/server.log) without waiting for it. */
export function spawnProduct(options: ProductOptions): Product {
  const log = openSync(join(options.dataDir, 'server.log'), 'a');
  // A minimal environment: an inherited DATABASE_URL, SMTP_URL or payment key must not send traffic elsewhere.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    FEED: 'sim',
    SIM_SESSION: 'always',
    LOG_LEVEL: 'warn',
    REGISTER_LIMIT_PER_IP: '0',
    ...options.env,
  };
  const child = spawn(process.execPath, [SERVER_MAIN], { cwd: ROOT, env, stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    child,
    url: `http://127.0.0.1:${options.port}`,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Waits until GET /api/health answers 200; fails with the log's tail if the process dies or time runs out. */
export async function waitHealthy(product: Product, dataDir: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (product.child.exitCode !== null || product.child.signalCode !== null) break;
    try {
      const res = await fetch(`${product.url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`the product did not become healthy; its log ends:\n${logTail(dataDir)}`);
}

export function logTail(dataDir: string, lines = 20): string {
  try {
    return readFileSync(join(dataDir, 'server.log'), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export interface ApiResponse {
  status: number;
  json: Record<string, unknown>;
}

/** One JSON request; a connection torn down by a kill surfaces as status 0. */
export async function api(
  url: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<ApiResponse> {
  try {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const json: unknown = await res.json().catch(() => ({}));
    return {
      status: res.status,
      json: typeof json === 'object' && json !== null ? (json as ApiResponse['json']) : {},
    };
  } catch {
    return { status: 0, json: {} };
  }
}

/** The engine's open-position count from /api/health ("N open position(s), …"), or null when it does not say. */
export async function enginePositions(url: string): Promise<number | null> {
  const res = await api(url, 'GET', '/api/health');
  const subsystems = res.json.subsystems as Record<string, { detail?: string }> | undefined;
  const match = /^(\d+) open position/.exec(subsystems?.engine?.detail ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * Small candle bodies and a 5-point stop (as in the simulated-market integration test): signals, entries and exits
 * every few virtual minutes. Written with the server stopped: the engine reads its controls when it starts.
 */
export async function fastStrategy(dataDir: string): Promise<void> {
  const db = openDatabase({ dataDir });
  try {
    await setAdminControl(db.knex, 'minMovement', '1', null);
    await setAdminControl(db.knex, 'stopLoss', '5', null);
  } finally {
    await closeDatabase(db);
  }
}
