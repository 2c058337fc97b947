// `npm run bench:live`: the live load benchmark (docs/performance.md). It builds the server if stale, starts the real
// product (`node server/dist/main.js`) on 127.0.0.1 with a temporary DATA_DIR and SIM_SPEED=1, signs in a few users,
// spreads N Socket.IO clients over P child processes and records tick-to-client latency and server memory; then
// measures REST at a fixed rate (`/api/user/stats` beside the bare `/api/ping`); with --nodes N, runs the same
// clients round-robin over N nodes on PostgreSQL + Redis (cluster-nodes.ts) and compares with the single node; then
// runs the same clients against a bare Socket.IO server broadcasting the same payload at the same rate (the
// baseline), and prints the comparison. With --rounds R the product and baseline phases instead alternate R times
// each (P B, B P, …) with both servers up, and the comparison pools every round's samples.
// Every wait is bounded, children die with the bench (exit, Ctrl-C, a watchdog), and the exit code is 0 whenever
// the run completed, whatever the figures: a missed target is a finding, not an error.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  clusterServers,
  fdsNeeded,
  parseBenchArgs,
  processesForFdLimit,
  spread,
  USAGE,
  UsageError,
  type BenchOptions,
} from './args';
import { checkClusterServers, SetupError, startCluster } from './cluster-nodes';
import { ownOpenFilesLimit, readCpuTicks, readMemory, type MemorySample } from './proc';
import type { BareServerReport, ConnectReport, WorkerCommand, WorkerResult } from './protocol';
import {
  poolRounds,
  renderReport,
  summarizeMemory,
  tickNotes,
  type BenchReport,
  type NodeResult,
  type RestResult,
  type RoundResult,
  type SocketPhaseResult,
} from './report';
import { createHistogram, fromWire, mergeInto, ratio, summarize, type Histogram } from './stats';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../..');
const SERVER_MAIN = join(ROOT, 'server/dist/main.js');

/** The product's settings for the run; the baseline copies the tick interval they imply. */
const PRODUCT_ENV = {
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
/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every mainstream architecture. */
const CLOCK_TICKS_PER_S = 100;
const CONNECT_CONCURRENCY = 25;
const CONNECT_TIMEOUT_MS = 20_000;
const REST_CONNECTIONS = 32;
const REST_WARMUP_S = 3;
const BENCH_PASSWORD = 'BenchPassw0rd';

const started = Date.now();
const children = new Set<ChildProcess>();
const tempDirs: string[] = [];
let quiet = false;
/** epoch ms of the last socket phase's recording, to point a CPU profile at the steady state */
let recordingWindow = { from: 0, to: 0 };

function log(message: string): void {
  if (!quiet)
    process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}

function cleanup(): void {
  killAll();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// The bench owns its children: whatever ends it (normal exit, error, Ctrl-C, kill) takes them down too.
process.on('exit', cleanup);
/** While the cluster phase runs: drops its database and Redis keys (a Ctrl-C must not leave them behind). */
let dropCluster: (() => Promise<void>) | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench:live: ${signal}, stopping children\n`);
    cleanup();
    const dropping = dropCluster?.() ?? Promise.resolve();
    void Promise.race([dropping.catch(() => {}), sleep(5000)]).then(() => process.exit(130));
  });
}

/** Resolves with the child's first message accepted by `pick`; rejects on timeout, exit or a reported error. */
function nextMessage<T>(
  child: ChildProcess,
  what: string,
  timeoutMs: number,
  pick: (message: unknown) => T | undefined,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: unknown) => {
      if (isRecord(message) && message.type === 'error') {
        done();
        reject(new Error(`${what}: ${String(message.message)}`));
        return;
      }
      const picked = pick(message);
      if (picked !== undefined) {
        done();
        resolve(picked);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`${what}: the child exited (code ${code}, signal ${signal})`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${what}: no answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Waits for a child to exit, killing it after `graceMs`. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function forkTs(file: string, args: string[] = []): ChildProcess {
  return track(
    fork(join(HERE, file), args, {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
}

// ---- the product ---------------------------------------------------------------------------------------------

function buildServer(): void {
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

interface Product {
  child: ChildProcess;
  url: string;
  logFile: string;
  /** epoch ms of the spawn, ≈ the start of a --cpu-prof profile */
  spawnedAt: number;
}

async function startProduct(options: BenchOptions, profileDir: string | null): Promise<Product> {
  const dataDir = mkdtempSync(join(tmpdir(), 'optionpilot-bench-'));
  tempDirs.push(dataDir);
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
async function signInUsers(url: string, count: number): Promise<string[]> {
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

// ---- socket phases -------------------------------------------------------------------------------------------

/** A server a socket phase connects to: the one product or bare server, or one node of the cluster. */
interface ServerUnderTest {
  url: string;
  pid: number;
  role: NodeResult['role'];
}

const cpuPercent = (from: number | null, to: number | null, seconds: number): number | null =>
  from === null || to === null ? null : ((to - from) / CLOCK_TICKS_PER_S / seconds) * 100;

/** A socket phase's result and its latency histogram (rounds pool the histograms, not the percentiles). */
interface PhaseRun {
  result: SocketPhaseResult;
  histogram: Histogram;
}

async function runSocketPhase(props: {
  label: SocketPhaseResult['label'];
  /** one server, or the cluster's nodes: socket k connects to servers[k mod n] (round-robin) */
  servers: readonly ServerUnderTest[];
  tokens: readonly string[];
  options: BenchOptions;
  processes: number;
}): Promise<PhaseRun> {
  const { label, servers, tokens, options, processes } = props;
  const pids = servers.map((server) => server.pid);
  const idle = pids.map((pid) => readMemory(pid));
  const counts = spread(options.clients, processes);
  let offset = 0;
  const workers = counts.map((count) => {
    const worker = forkTs('client-worker.ts');
    // Round-robin over the users and the servers so each process holds sockets of every user on every node.
    const indexes = Array.from({ length: count }, (_, i) => offset + i);
    offset += count;
    const command: WorkerCommand = {
      type: 'connect',
      urls: indexes.map((k) => servers[k % servers.length]?.url ?? ''),
      tokens: indexes.map((k) => tokens[k % tokens.length] ?? ''),
      concurrency: CONNECT_CONCURRENCY,
      timeoutMs: CONNECT_TIMEOUT_MS,
    };
    worker.send(command);
    return worker;
  });
  const over = servers.length > 1 ? ` and ${servers.length} nodes` : '';
  log(`${label}: connecting ${options.clients} clients over ${processes} processes${over}`);
  const connectBudgetMs =
    60_000 + Math.ceil(options.clients / processes / CONNECT_CONCURRENCY) * CONNECT_TIMEOUT_MS;
  const connected = await Promise.all(
    workers.map((w, i) =>
      nextMessage<ConnectReport>(w, `${label} worker ${i} connecting`, connectBudgetMs, (m) =>
        isRecord(m) && m.type === 'connected' ? (m as unknown as ConnectReport) : undefined,
      ),
    ),
  );
  const ok = connected.reduce((n, c) => n + c.ok, 0);
  const connectMs = Math.max(...connected.map((c) => c.ms));
  const connectErrors = [...new Set(connected.flatMap((c) => c.errors))];
  log(`${label}: ${ok}/${options.clients} connected in ${(connectMs / 1000).toFixed(1)} s`);
  for (const e of connectErrors) log(`${label}: connect error ${e}`);

  if (options.warmupS > 0) {
    log(`${label}: warming up ${options.warmupS} s`);
    await sleep(options.warmupS * 1000);
  }
  const record: WorkerCommand = { type: 'record' };
  for (const w of workers) w.send(record);
  const recordStart = Date.now();
  recordingWindow = { from: recordStart, to: recordStart + options.durationS * 1000 };
  const cpuStart = pids.map((pid) => readCpuTicks(pid));
  const samples: MemorySample[][] = pids.map(() => []);
  const sampleAll = () =>
    pids.forEach((pid, i) => {
      const sample = readMemory(pid);
      if (sample) samples[i]?.push(sample);
    });
  sampleAll();
  log(`${label}: recording ${options.durationS} s`);
  // One memory sample a second for exactly the recorded window; a progress line every 30 s for long soaks.
  for (let s = 1; s <= options.durationS; s += 1) {
    await sleep(recordStart + s * 1000 - Date.now());
    sampleAll();
    if (s % 30 === 0 && s < options.durationS) {
      const rss = samples.map((own) => own.at(-1)?.rssMb.toFixed(1) ?? '?').join(' + ');
      log(`${label}: ${s}/${options.durationS} s, server RSS ${rss} MB`);
    }
  }
  const stop: WorkerCommand = { type: 'stop' };
  const results = await Promise.all(
    workers.map((w, i) => {
      const result = nextMessage<WorkerResult>(w, `${label} worker ${i} reporting`, 30_000, (m) =>
        isRecord(m) && m.type === 'result' ? (m as unknown as WorkerResult) : undefined,
      );
      w.send(stop);
      return result;
    }),
  );
  const recordedS = (Date.now() - recordStart) / 1000;
  const cpuEnd = pids.map((pid) => readCpuTicks(pid));
  await Promise.all(workers.map((w) => stopChild(w, 'SIGTERM', 5000)));

  // Latency from every socket (the phase's figure) and by the server each socket was connected to (per node).
  const latency = createHistogram();
  const byUrl = new Map<string, Histogram>(servers.map((server) => [server.url, createHistogram()]));
  const events: Record<string, number> = {};
  for (const r of results) {
    for (const [url, wire] of Object.entries(r.latency)) {
      const histogram = fromWire(wire);
      mergeInto(latency, histogram);
      const own = byUrl.get(url);
      if (own) mergeInto(own, histogram);
    }
    for (const [name, n] of Object.entries(r.events)) events[name] = (events[name] ?? 0) + n;
  }
  const cpu = pids.map((_, i) => cpuPercent(cpuStart[i] ?? null, cpuEnd[i] ?? null, recordedS));
  const perNodeClients = spread(options.clients, servers.length);
  const nodes: NodeResult[] = servers.map((server, i) => {
    const own = byUrl.get(server.url);
    return {
      role: server.role,
      url: server.url,
      clients: perNodeClients[i] ?? 0,
      latency: own === undefined ? null : summarize(own),
      serverCpuPercent: cpu[i] ?? null,
      memory: summarizeMemory(samples[i] ?? [], idle[i]?.rssMb ?? null),
    };
  });
  const perClientRate = (n: number) => (ok > 0 ? n / ok / recordedS : 0);
  const summary: SocketPhaseResult = {
    label,
    clients: options.clients,
    connected: ok,
    failed: options.clients - ok,
    connectErrors,
    connectMs,
    recordedS,
    latency: summarize(latency),
    ticksPerSecond: results.reduce((n, r) => n + r.distinctTicks, 0) / results.length / recordedS,
    eventsPerClientPerS: Object.fromEntries(
      Object.entries(events).map(([name, n]) => [name, perClientRate(n)]),
    ),
    disconnects: results.reduce((n, r) => n + r.disconnects, 0),
    serverCpuPercent: cpu.some((c) => c === null) ? null : cpu.reduce<number>((a, c) => a + (c ?? 0), 0),
    clientsCpuPercent: (results.reduce((n, r) => n + r.cpuMs, 0) / 1000 / recordedS) * 100,
    ...(servers.length > 1 ? { nodes } : {}),
    load1: loadavg()[0] ?? 0,
    memory: servers.length > 1 ? null : (nodes[0]?.memory ?? null),
  };
  log(
    `${label}: p50 ${summary.latency?.p50 ?? '–'} ms, p99 ${summary.latency?.p99 ?? '–'} ms over ` +
      `${summary.latency?.count ?? 0} samples`,
  );
  return { result: summary, histogram: latency };
}

/** The bare server ignores auth, but its clients send a token anyway so they do exactly the same work. */
const BARE_TOKENS = ['bare-server-ignores-this-token'];

/**
 * --rounds: the product and baseline phases `options.rounds` times each, interleaved P B, B P, P B, … with both
 * servers up throughout, so a slow drift of a shared machine (its other work, thermal state, the page cache) falls
 * on both sides alike instead of on whichever phase ran second. The verdict pools every round's samples.
 */
async function runRounds(props: {
  product: ServerUnderTest;
  bare: ServerUnderTest;
  tokens: readonly string[];
  options: BenchOptions;
  processes: number;
}): Promise<{ product: SocketPhaseResult; baseline: SocketPhaseResult; rounds: RoundResult[] }> {
  const { product, bare, tokens, options, processes } = props;
  const runs: Record<RoundResult['first'], PhaseRun[]> = { product: [], baseline: [] };
  const rounds: RoundResult[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    const order: RoundResult['first'][] = round % 2 === 1 ? ['product', 'baseline'] : ['baseline', 'product'];
    for (const label of order) {
      log(`round ${round}/${options.rounds}: ${label}`);
      const isProduct = label === 'product';
      runs[label].push(
        await runSocketPhase({
          label,
          servers: [isProduct ? product : bare],
          tokens: isProduct ? tokens : BARE_TOKENS,
          options,
          processes,
        }),
      );
    }
    const own = (label: RoundResult['first']) => runs[label].at(-1)?.result.latency ?? null;
    rounds.push({
      round,
      first: order[0] ?? 'product',
      product: own('product'),
      baseline: own('baseline'),
      ratio: ratio(own('product')?.p99, own('baseline')?.p99),
    });
  }
  const pool = (list: readonly PhaseRun[]): SocketPhaseResult => {
    const all = createHistogram();
    for (const run of list) mergeInto(all, run.histogram);
    return poolRounds(
      list.map((run) => run.result),
      summarize(all),
    );
  };
  return { product: pool(runs.product), baseline: pool(runs.baseline), rounds };
}

async function startBareServer(intervalMs: number): Promise<{ child: ChildProcess; url: string }> {
  const child = forkTs('bare-server.ts', [String(intervalMs)]);
  const port = await nextMessage<number>(child, 'bare server starting', 30_000, (m) =>
    isRecord(m) && m.type === 'listening' ? (m as unknown as BareServerReport).port : undefined,
  );
  log(`bare server up at 127.0.0.1:${port} (pid ${child.pid}), broadcasting every ${intervalMs} ms`);
  return { child, url: `http://127.0.0.1:${port}` };
}

// ---- REST ----------------------------------------------------------------------------------------------------

async function measureRest(props: {
  url: string;
  serverPid: number;
  path: string;
  token: string | null;
  rate: number;
  seconds: number;
}): Promise<RestResult> {
  const { url, serverPid, path, token, rate, seconds } = props;
  const run = (duration: number) =>
    autocannon({
      url: `${url}${path}`,
      connections: REST_CONNECTIONS,
      overallRate: rate,
      duration,
      timeout: 10,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
  // A short unmeasured run first: JIT, connection setup and SQLite's page cache are not what the target is about.
  await run(REST_WARMUP_S);
  const cpuStart = readCpuTicks(serverPid);
  const result = await run(seconds);
  const cpuEnd = readCpuTicks(serverPid);
  const requests = result.requests.total;
  const summary: RestResult = {
    path,
    targetRate: rate,
    achievedRate: requests / result.duration,
    requests,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    serverCpuUsPerRequest:
      cpuStart === null || cpuEnd === null || requests === 0
        ? null
        : ((cpuEnd - cpuStart) / CLOCK_TICKS_PER_S / requests) * 1e6,
    load1: loadavg()[0] ?? 0,
  };
  log(
    `REST ${path}: ${summary.achievedRate.toFixed(0)} req/s, p50 ${summary.p50} ms, p99 ${summary.p99} ms, ` +
      `non-2xx ${summary.non2xx}, errors ${summary.errors}, server CPU ${summary.serverCpuUsPerRequest?.toFixed(0) ?? '?'} µs/request`,
  );
  return summary;
}

// ---- the cluster (--nodes) -----------------------------------------------------------------------------------

/**
 * The same clients over `options.nodes` nodes on PostgreSQL + Redis, with the single node's settings. The users
 * sign up on node 1 (the leader); their tokens hold on every node (one JWT secret, one sessions table).
 */
async function runClusterPhase(options: BenchOptions, processes: number): Promise<SocketPhaseResult> {
  const { databaseServerUrl, redisUrl } = clusterServers(process.env);
  log(`cluster: creating a database and starting ${options.nodes} nodes on PostgreSQL + Redis`);
  const cluster = await startCluster({
    count: options.nodes,
    env: { ...PRODUCT_ENV, LOG_LEVEL: options.logLevel },
    databaseServerUrl,
    redisUrl,
    onStarted: (child) => track(child),
  });
  dropCluster = cluster.close;
  try {
    for (const node of cluster.nodes) log(`cluster: ${node.role} at ${node.url} (pid ${node.pid})`);
    const tokens = await signInUsers(cluster.nodes[0]?.url ?? '', options.users);
    return (await runSocketPhase({ label: 'cluster', servers: cluster.nodes, tokens, options, processes }))
      .result;
  } finally {
    dropCluster = null;
    await cluster.close();
  }
}

// ---- main ----------------------------------------------------------------------------------------------------

function checkFileLimits(options: BenchOptions): {
  processes: number;
  softLimit: number | null;
  notes: string[];
} {
  const limit = ownOpenFilesLimit();
  const notes: string[] = [];
  if (limit === null) return { processes: options.processes, softLimit: null, notes };
  // The server holds one descriptor per client socket (plus REST connections); children inherit our limit.
  const serverNeeds = fdsNeeded(options.clients + REST_CONNECTIONS);
  if (limit.soft < serverNeeds) {
    const hint =
      limit.hard >= serverNeeds
        ? `raise it in this shell with \`ulimit -n ${serverNeeds}\` (the hard limit allows up to ${limit.hard})`
        : `the hard limit is ${limit.hard}: raise it in /etc/security/limits.conf (nofile) or the service's LimitNOFILE, then \`ulimit -n ${serverNeeds}\``;
    throw new Error(
      `the open-files limit (ulimit -n) is ${limit.soft}, but the server needs about ${serverNeeds} descriptors ` +
        `for ${options.clients} sockets: ${hint}, or run fewer --clients`,
    );
  }
  const processes = processesForFdLimit(options.clients, options.processes, limit.soft) ?? options.processes;
  if (processes > options.processes) {
    notes.push(
      `spread the clients over ${processes} processes so none exceeds the open-files limit of ${limit.soft}`,
    );
  }
  return { processes, softLimit: limit.soft, notes };
}

function findProfile(dir: string): string | null {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  return file === undefined ? null : join(dir, file);
}

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`bench:live: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  const servers = clusterServers(process.env);
  if (options.nodes > 1) {
    try {
      await checkClusterServers(servers);
    } catch (err) {
      if (err instanceof SetupError) {
        process.stderr.write(`bench:live: ${err.message}\n`);
        process.exit(2);
      }
      throw err;
    }
  }
  const { processes, softLimit, notes } = checkFileLimits(options);
  const phases = new Set(options.phases);
  const socketPhases =
    (phases.has('product') ? 1 : 0) + (phases.has('baseline') ? 1 : 0) + (options.nodes > 1 ? 1 : 0);
  // Watchdog: generous per-step budgets; a bench that hangs past them is stopped with its children.
  const budgetS =
    300 +
    socketPhases * options.rounds * (180 + options.warmupS + options.durationS) +
    (phases.has('rest') ? 2 * (options.restSeconds + REST_WARMUP_S + 30) : 0);
  setTimeout(() => {
    process.stderr.write(`bench:live: still running after ${budgetS} s, giving up\n`);
    process.exit(1);
  }, budgetS * 1000).unref();

  const report: BenchReport = {
    clients: options.clients,
    processes,
    durationS: options.durationS,
    machine: { cpus: availableParallelism(), node: process.versions.node, openFilesSoftLimit: softLimit },
    rest: [],
    notes,
  };
  const baselineIntervalMs = Math.max(
    SIM_TICK_INTERVAL_MS / Number(PRODUCT_ENV.SIM_SPEED),
    Number(PRODUCT_ENV.TICK_BROADCAST_MS),
  );

  if (phases.has('product') || phases.has('rest')) {
    buildServer();
    const profileDir = options.cpuProf ? mkdtempSync(join(tmpdir(), 'optionpilot-bench-prof-')) : null;
    const product = await startProduct(options, profileDir);
    const pid = product.child.pid ?? 0;
    const tokens = await signInUsers(product.url, options.users);
    const productServer: ServerUnderTest = { url: product.url, pid, role: 'leader' };
    if (phases.has('product') && options.rounds > 1) {
      const bare = await startBareServer(baselineIntervalMs);
      const interleaved = await runRounds({
        product: productServer,
        bare: { url: bare.url, pid: bare.child.pid ?? 0, role: 'leader' },
        tokens,
        options,
        processes,
      });
      await stopChild(bare.child, 'SIGTERM', 5000);
      report.product = interleaved.product;
      report.baseline = interleaved.baseline;
      report.rounds = interleaved.rounds;
    } else if (phases.has('product')) {
      report.product = (
        await runSocketPhase({ label: 'product', servers: [productServer], tokens, options, processes })
      ).result;
    }
    if (report.product) notes.push(...tickNotes(report.product, baselineIntervalMs));
    if (phases.has('rest') && options.restSeconds > 0) {
      await sleep(2000); // the clients' disconnects settle before the REST measurements
      for (const [path, token] of [
        ['/api/ping', null],
        ['/api/user/stats', tokens[0] ?? null],
      ] as const) {
        report.rest.push(
          await measureRest({
            url: product.url,
            serverPid: pid,
            path,
            token,
            rate: options.restRate,
            seconds: options.restSeconds,
          }),
        );
      }
    }
    await stopChild(product.child, 'SIGTERM', 15_000);
    if (profileDir !== null) {
      const profile = findProfile(profileDir);
      const window = phases.has('product')
        ? ` --from ${Math.floor((recordingWindow.from - product.spawnedAt) / 1000)}` +
          ` --to ${Math.ceil((recordingWindow.to - product.spawnedAt) / 1000)}`
        : '';
      notes.push(
        profile === null
          ? `no CPU profile was written to ${profileDir}`
          : `CPU profile of the product; summary of the recording window: npx tsx test/load/cpuprofile.ts ${profile}${window}`,
      );
    }
  }

  if (options.nodes > 1) {
    report.cluster = await runClusterPhase(options, processes);
    notes.push(...tickNotes(report.cluster, baselineIntervalMs));
  }

  if (phases.has('baseline') && report.baseline === undefined) {
    const bare = await startBareServer(baselineIntervalMs);
    report.baseline = (
      await runSocketPhase({
        label: 'baseline',
        servers: [{ url: bare.url, pid: bare.child.pid ?? 0, role: 'leader' }],
        tokens: BARE_TOKENS,
        options,
        processes,
      })
    ).result;
    await stopChild(bare.child, 'SIGTERM', 5000);
  }

  quiet = true;
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `\n${renderReport(report)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench:live failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
