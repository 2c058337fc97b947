// Database contention run: the real server on SQLite with traders whose bots write orders and trades on a fast
// simulated market, N Socket.IO clients held open by the bench's client workers (test/load/client-worker.ts), and
// REST polling of the database-backed user endpoints, all at once for a fixed time. It counts what must stay zero:
// error responses, request errors, dropped sockets, "database is locked" / SQLITE_BUSY and error-level lines in
// the server log. `npm run bench:faults` runs it at full size; contention.test.ts runs a short version.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SQLITE_FILE_NAME } from '@optionpilot/server/db/index';
import { spread } from '../load/args';
import type { ConnectReport, WorkerCommand, WorkerResult } from '../load/protocol';
import { checkDatabase } from './invariants';
import { ROOT, buildServer, fastStrategy, freePort, spawnProduct, waitHealthy } from './product';
import { activeTraders } from './traders';

export interface ContentionOptions {
  clients: number;
  durationS: number;
  /** client worker processes */
  processes: number;
  traders: number;
  /** REST requests per second over all polling connections */
  restRate: number;
  log: (message: string) => void;
}

export interface ContentionReport {
  clients: number;
  connected: number;
  durationS: number;
  restRequests: number;
  /** responses other than 2xx */
  restNon2xx: number;
  /** requests that failed without a response (reset, timeout) */
  restErrors: number;
  socketDisconnects: number;
  /** log lines mentioning "database is locked" or SQLITE_BUSY */
  lockedLines: number;
  /** error-level (pino ≥ 50) log lines */
  errorLines: number;
  /** signals and orders the engine wrote while the run lasted */
  engineWrites: number;
  integrity: string;
}

/** What must be zero for the run to pass; an empty list means it passed. */
export function contentionProblems(report: ContentionReport): string[] {
  const problems: string[] = [];
  if (report.connected < report.clients)
    problems.push(`${report.clients - report.connected} sockets did not connect`);
  for (const key of ['restNon2xx', 'restErrors', 'socketDisconnects', 'lockedLines', 'errorLines'] as const) {
    if (report[key] > 0) problems.push(`${key}: ${report[key]}`);
  }
  if (report.integrity !== 'ok') problems.push(`integrity_check: ${report.integrity}`);
  return problems;
}

/** Counts the server log's lines about a locked database and its error-level lines (pino JSON, level ≥ 50). */
export function scanLog(text: string): { lockedLines: number; errorLines: number } {
  let lockedLines = 0;
  let errorLines = 0;
  for (const line of text.split('\n')) {
    if (/database is locked|SQLITE_BUSY/i.test(line)) lockedLines += 1;
    const level = /"level":(\d+)/.exec(line);
    if (level && Number(level[1]) >= 50) errorLines += 1;
  }
  return { lockedLines, errorLines };
}

function message<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ${type} from a client worker`)), timeoutMs);
    const onMessage = (m: unknown) => {
      const record = m as { type?: string; message?: string };
      if (record.type === 'error') fail(new Error(record.message));
      if (record.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      done(m as T);
    };
    child.on('message', onMessage);
  });
}

export async function runContention(options: ContentionOptions): Promise<ContentionReport> {
  buildServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'optionpilot-contention-'));
  const port = await freePort();
  const env = { SIM_SPEED: '1200', SIM_SEED: '20261124', TICK_BROADCAST_MS: '250' };
  let product = spawnProduct({ dataDir, port, env });
  const workers: ChildProcess[] = [];
  try {
    await waitHealthy(product, dataDir);
    const tokens = await activeTraders(product.url, options.traders);
    // Restart with the strategy's thresholds lowered so the engine writes signals, orders and trades meanwhile.
    product.child.kill('SIGTERM');
    await product.exited;
    await fastStrategy(dataDir);
    product = spawnProduct({ dataDir, port, env });
    await waitHealthy(product, dataDir);
    options.log(`server up at ${product.url}, ${tokens.length} traders paid with their bots on`);
    const before = checkDatabase(join(dataDir, SQLITE_FILE_NAME), null, { integrity: false }).snapshot;

    const url = product.url;
    let offset = 0;
    for (const count of spread(options.clients, options.processes)) {
      const worker = fork(join(ROOT, 'test/load/client-worker.ts'), [], {
        cwd: ROOT,
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      workers.push(worker);
      const own = Array.from({ length: count }, (_, i) => tokens[(offset + i) % tokens.length] ?? '');
      offset += count;
      const connect: WorkerCommand = {
        type: 'connect',
        urls: own.map(() => url),
        tokens: own,
        concurrency: 25,
        timeoutMs: 20_000,
      };
      worker.send(connect);
    }
    const connected = await Promise.all(workers.map((w) => message<ConnectReport>(w, 'connected', 600_000)));
    const ok = connected.reduce((n, c) => n + c.ok, 0);
    options.log(`${ok}/${options.clients} sockets connected; polling REST for ${options.durationS} s`);
    const record: WorkerCommand = { type: 'record' };
    for (const w of workers) w.send(record);

    // Each polling connection is one trader's dashboard: stats, trades and bot status in turn.
    const rest = await autocannon({
      url: product.url,
      connections: Math.min(32, Math.max(4, tokens.length * 2)),
      overallRate: options.restRate,
      duration: options.durationS,
      timeout: 10,
      requests: ['/api/user/stats', '/api/user/trades?limit=50', '/api/user/bot-status'].map((path, i) => ({
        method: 'GET' as const,
        path,
        headers: { authorization: `Bearer ${tokens[i % tokens.length] ?? ''}` },
      })),
    });

    const stop: WorkerCommand = { type: 'stop' };
    const results = await Promise.all(
      workers.map((w) => {
        const result = message<WorkerResult>(w, 'result', 60_000);
        w.send(stop);
        return result;
      }),
    );
    const after = checkDatabase(join(dataDir, SQLITE_FILE_NAME), null, { integrity: true });
    const log = scanLog(readFileSync(join(dataDir, 'server.log'), 'utf8'));
    return {
      clients: options.clients,
      connected: ok,
      durationS: options.durationS,
      restRequests: rest.requests.total,
      restNon2xx: rest.non2xx,
      restErrors: rest.errors + rest.timeouts,
      socketDisconnects: results.reduce((n, r) => n + r.disconnects, 0),
      ...log,
      engineWrites: after.snapshot.orders - before.orders + after.snapshot.signals - before.signals,
      integrity: after.violations.find((v) => v.startsWith('integrity_check')) ?? 'ok',
    };
  } finally {
    for (const w of workers) w.kill('SIGKILL');
    await product.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
