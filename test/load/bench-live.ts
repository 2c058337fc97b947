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
// The servers: servers.ts; a socket phase and the rounds: socketPhase.ts; owning the child processes: children.ts.
import { mkdtempSync, readdirSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  clusterServers,
  fdsNeeded,
  parseBenchArgs,
  processesForFdLimit,
  USAGE,
  UsageError,
  type BenchOptions,
} from './args';
import { log, setInterruptHook, silenceLog, sleep, stopChild, track } from './children';
import { checkClusterServers, SetupError, startCluster } from './cluster-nodes';
import { ownOpenFilesLimit, readCpuTicks } from './proc';
import { renderReport } from './render';
import { tickNotes, type BenchReport, type RestResult, type SocketPhaseResult } from './report';
import {
  BARE_TOKENS,
  BROADCAST_INTERVAL_MS,
  buildServer,
  PRODUCT_ENV,
  signInUsers,
  startBareServer,
  startProduct,
} from './servers';
import {
  CLOCK_TICKS_PER_S,
  lastRecordingWindow,
  runRounds,
  runSocketPhase,
  type ServerUnderTest,
} from './socketPhase';

const REST_CONNECTIONS = 32;
const REST_WARMUP_S = 3;

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
  setInterruptHook(cluster.close);
  try {
    for (const node of cluster.nodes) log(`cluster: ${node.role} at ${node.url} (pid ${node.pid})`);
    const tokens = await signInUsers(cluster.nodes[0]?.url ?? '', options.users);
    return (await runSocketPhase({ label: 'cluster', servers: cluster.nodes, tokens, options, processes }))
      .result;
  } finally {
    setInterruptHook(null);
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
  const baselineIntervalMs = BROADCAST_INTERVAL_MS;

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
      const recorded = lastRecordingWindow();
      const window = phases.has('product')
        ? ` --from ${Math.floor((recorded.from - product.spawnedAt) / 1000)}` +
          ` --to ${Math.ceil((recorded.to - product.spawnedAt) / 1000)}`
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

  silenceLog();
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `\n${renderReport(report)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench:live failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
