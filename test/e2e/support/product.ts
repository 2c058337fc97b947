// One private instance of the production build for a spec that must not share state with others (admin bootstrap
// works once per database; the live loop changes global trading controls). Each instance gets its own free port
// and temporary DATA_DIR, and is stopped (SIGTERM, then the directory is removed) when the spec's worker ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), 'launch-product.mjs');

/** How long a fresh server may take to migrate its database and answer /api/health. */
const START_TIMEOUT_MS = 60_000;
/** How long a graceful shutdown may take before the process is killed. */
const STOP_TIMEOUT_MS = 10_000;
/** Lines of server output kept for failure reports. */
const LOG_LINES = 200;

export interface ProductOptions {
  /** extra environment for the server, e.g. `{ SIM_SPEED: '600' }` (see launch-product.mjs for the defaults) */
  env?: Record<string, string>;
}

export interface Product {
  /** `http://127.0.0.1:<port>`, also the server's PUBLIC_URL, so links it makes point back here */
  baseURL: string;
  dataDir: string;
  /** the server's latest output lines, for attaching to a failed test */
  logs(): string;
  stop(): Promise<void>;
}

/** Asks the OS for a free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitForHealth(baseURL: string, child: ChildProcess, logs: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The product exited during start-up (code ${child.exitCode}).\n${logs()}`);
    }
    try {
      const response = await fetch(`${baseURL}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    // Polling interval of the readiness probe (not a wait for a product behaviour).
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `The product did not answer ${baseURL}/api/health within ${START_TIMEOUT_MS} ms.\n${logs()}`,
  );
}

/** Starts the built product on a free port with a fresh DATA_DIR; resolves once /api/health answers 200. */
export async function startProduct(options: ProductOptions = {}): Promise<Product> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'optionpilot-e2e-spec-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > LOG_LINES) lines.splice(0, lines.length - LOG_LINES);
  };
  const logs = () => lines.join('\n');

  const child = spawn(process.execPath, [LAUNCHER], {
    env: { ...process.env, ...options.env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseURL, child, logs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseURL, dataDir, logs, stop };
}
