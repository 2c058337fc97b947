// bench:live's socket phases: N Socket.IO clients spread over child processes (client-worker.ts) connect to one
// server (the product, the bare baseline) or round-robin to a cluster's nodes, record tick-to-client latency for the
// set duration while the server's CPU and memory are sampled, and report one SocketPhaseResult; `runRounds`
// alternates the product and the baseline R times and pools their samples.
import { loadavg } from 'node:os';
import { spread, type BenchOptions } from './args';
import { forkTs, isRecord, log, nextMessage, sleep, stopChild } from './children';
import { readCpuTicks, readMemory, type MemorySample } from './proc';
import type { ConnectReport, WorkerCommand, WorkerResult } from './protocol';
import {
  poolRounds,
  summarizeMemory,
  type NodeResult,
  type RoundResult,
  type SocketPhaseResult,
} from './report';
import { BARE_TOKENS } from './servers';
import { createHistogram, fromWire, mergeInto, ratio, summarize, type Histogram } from './stats';

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every mainstream architecture. */
export const CLOCK_TICKS_PER_S = 100;
const CONNECT_CONCURRENCY = 25;
const CONNECT_TIMEOUT_MS = 20_000;

/** epoch ms of the last socket phase's recording, to point a CPU profile at the steady state */
let recording = { from: 0, to: 0 };
export function lastRecordingWindow(): { readonly from: number; readonly to: number } {
  return recording;
}

/** A server a socket phase connects to: the one product or bare server, or one node of the cluster. */
export interface ServerUnderTest {
  url: string;
  pid: number;
  role: NodeResult['role'];
}

export const cpuPercent = (from: number | null, to: number | null, seconds: number): number | null =>
  from === null || to === null ? null : ((to - from) / CLOCK_TICKS_PER_S / seconds) * 100;

/** A socket phase's result and its latency histogram (rounds pool the histograms, not the percentiles). */
export interface PhaseRun {
  result: SocketPhaseResult;
  histogram: Histogram;
}

export async function runSocketPhase(props: {
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
  recording = { from: recordStart, to: recordStart + options.durationS * 1000 };
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

/**
 * --rounds: the product and baseline phases `options.rounds` times each, interleaved P B, B P, P B, … with both
 * servers up throughout, so a slow drift of a shared machine (its other work, thermal state, the page cache) falls
 * on both sides alike instead of on whichever phase ran second. The verdict pools every round's samples.
 */
export async function runRounds(props: {
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
