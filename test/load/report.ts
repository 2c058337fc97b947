// Result types of `npm run bench:live` and the checks against its targets (pure: unit-tested; the tables: render.ts).
import type { LatencySummary, Sample } from './stats';
import { median, ratio, slopePerMinute } from './stats';

export const TARGETS = {
  /**
   * product p99 tick-to-client over the bare server's, same clients, same machine (issue 23): at most 1.0× up to
   * 3,000 dashboards, 1.1× beyond (10,000)
   */
  latencyRatio: (clients: number): number => (clients > 3000 ? 1.1 : 1.0),
  /** the cluster phase's p99 tick-to-client over the single node's, same clients, same run (issue 23) */
  clusterRatio: 1.2,
  restRate: 2000,
  restP99Ms: 10,
  /** "flat": RSS grows by less than this over the recorded window (least squares, so GC sawtooth averages out) */
  memorySlopeMbPerMin: 1,
  /** shorter runs are reported but not judged: GC and JIT warm-up dominate the first minutes */
  memoryJudgeMinS: 300,
} as const;

export interface MemorySummary {
  /** RSS before any client connected */
  idleMb: number | null;
  startMb: number;
  endMb: number;
  peakMb: number;
  /** least-squares slope over the whole recorded window / over its second half */
  slopeMbPerMin: number | null;
  lateSlopeMbPerMin: number | null;
  anonStartMb: number | null;
  anonEndMb: number | null;
  samples: number;
  spanS: number;
}

/** One node's share of the cluster phase. */
export interface NodeResult {
  /** `leader` runs the feed and emits; a `follower` hands its sockets the leader's ticks through Redis */
  role: 'leader' | 'follower' | 'unknown';
  url: string;
  /** sockets the bench opened to this node */
  clients: number;
  latency: LatencySummary | null;
  serverCpuPercent: number | null;
  memory: MemorySummary | null;
}

export interface SocketPhaseResult {
  /** `cluster`: the product over several nodes (--nodes), its figures merged over them */
  label: 'product' | 'cluster' | 'baseline';
  clients: number;
  connected: number;
  failed: number;
  connectErrors: string[];
  connectMs: number;
  recordedS: number;
  latency: LatencySummary | null;
  /** distinct ticks per second one client saw */
  ticksPerSecond: number | null;
  /** events of each name per client per second */
  eventsPerClientPerS: Record<string, number>;
  disconnects: number;
  /** of the one server; in the cluster phase, the nodes' sum */
  serverCpuPercent: number | null;
  clientsCpuPercent: number | null;
  /** the cluster phase's nodes (absent for one server) */
  nodes?: NodeResult[];
  /** the machine's 1-minute load average at the end of the phase: other work competing for the CPUs */
  load1: number;
  memory: MemorySummary | null;
}

/** One round of an interleaved run (--rounds): the product and the bare server, same clients, back to back. */
export interface RoundResult {
  round: number;
  /** the phase that ran first in this round (the order alternates, so neither side always runs on a warmer machine) */
  first: 'product' | 'baseline';
  product: LatencySummary | null;
  baseline: LatencySummary | null;
  /** this round's product p99 over its baseline p99 */
  ratio: number | null;
}

export interface RestResult {
  path: string;
  targetRate: number;
  achievedRate: number;
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  /** server CPU time per request (user+system): what the route costs, whatever else the machine was doing */
  serverCpuUsPerRequest: number | null;
  load1: number;
}

export type Verdict = 'met' | 'missed' | 'not judged';

/** Summarises RSS samples taken while recording; `idleMb` is the RSS before clients connected. */
export function summarizeMemory(
  samples: ReadonlyArray<{ t: number; rssMb: number; anonMb: number | null }>,
  idleMb: number | null,
): MemorySummary | null {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (first === undefined || last === undefined) return null;
  const rss: Sample[] = samples.map((s) => ({ t: s.t, v: s.rssMb }));
  const late = rss.slice(Math.floor(rss.length / 2));
  return {
    idleMb,
    startMb: first.rssMb,
    endMb: last.rssMb,
    peakMb: Math.max(...samples.map((s) => s.rssMb)),
    slopeMbPerMin: slopePerMinute(rss),
    lateSlopeMbPerMin: slopePerMinute(late),
    anonStartMb: first.anonMb,
    anonEndMb: last.anonMb,
    samples: samples.length,
    spanS: (last.t - first.t) / 1000,
  };
}

/** Product p99 within TARGETS.latencyRatio (for its client count) of the baseline's. */
export function latencyVerdict(
  product: SocketPhaseResult | undefined,
  baseline: SocketPhaseResult | undefined,
) {
  const r = ratio(product?.latency?.p99, baseline?.latency?.p99);
  const target = TARGETS.latencyRatio(product?.clients ?? 0);
  const verdict: Verdict = r === null ? 'not judged' : r <= target ? 'met' : 'missed';
  return { ratio: r, target, verdict };
}

/**
 * Several rounds of one phase as one result: latency over every round's samples (`pooled`, from the merged
 * histograms), counts summed, rates and CPU averaged, the worst connect time, load and disconnect count, and the
 * memory of the round whose RSS peaked highest (the server stays up across rounds; a soak is one long round).
 */
export function poolRounds(
  rounds: readonly SocketPhaseResult[],
  pooled: LatencySummary | null,
): SocketPhaseResult {
  const first = rounds[0];
  if (first === undefined) throw new RangeError('poolRounds needs at least one round');
  const mean = (values: ReadonlyArray<number | null>): number | null =>
    values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + (v ?? 0), 0) / values.length;
  const eventNames = [...new Set(rounds.flatMap((r) => Object.keys(r.eventsPerClientPerS)))];
  const peakOf = (r: SocketPhaseResult) => r.memory?.peakMb ?? -Infinity;
  return {
    label: first.label,
    clients: first.clients,
    connected: Math.min(...rounds.map((r) => r.connected)),
    failed: Math.max(...rounds.map((r) => r.failed)),
    connectErrors: [...new Set(rounds.flatMap((r) => r.connectErrors))],
    connectMs: Math.max(...rounds.map((r) => r.connectMs)),
    recordedS: rounds.reduce((a, r) => a + r.recordedS, 0),
    latency: pooled,
    ticksPerSecond: mean(rounds.map((r) => r.ticksPerSecond)),
    eventsPerClientPerS: Object.fromEntries(
      eventNames.map((name) => [name, mean(rounds.map((r) => r.eventsPerClientPerS[name] ?? 0)) ?? 0]),
    ),
    disconnects: rounds.reduce((a, r) => a + r.disconnects, 0),
    serverCpuPercent: mean(rounds.map((r) => r.serverCpuPercent)),
    clientsCpuPercent: mean(rounds.map((r) => r.clientsCpuPercent)),
    load1: Math.max(...rounds.map((r) => r.load1)),
    memory: rounds.reduce((worst, r) => (peakOf(r) > peakOf(worst) ? r : worst), first).memory,
  };
}

/** The rounds' spread: the median of the per-round ratios and how many rounds were within the target. */
export function roundsSpread(rounds: readonly RoundResult[], clients: number) {
  const ratios = rounds.map((r) => r.ratio).filter((r): r is number => r !== null);
  const target = TARGETS.latencyRatio(clients);
  return {
    median: median(ratios),
    within: ratios.filter((r) => r <= target).length,
    judged: ratios.length,
    target,
  };
}

/** Cluster p99 within TARGETS.clusterRatio of the single node's, measured in the same run. */
export function clusterVerdict(
  product: SocketPhaseResult | undefined,
  cluster: SocketPhaseResult | undefined,
) {
  const r = ratio(cluster?.latency?.p99, product?.latency?.p99);
  const target = TARGETS.clusterRatio;
  const verdict: Verdict = r === null ? 'not judged' : r <= target ? 'met' : 'missed';
  return { ratio: r, target, verdict };
}

/**
 * Warnings about a product phase's ticks: a p50 outside −5 ms…10 s means the timestamps are not wall-clock emission
 * times (virtual time, a replay feed), and a rate away from the baseline's interval means the feed is not what the
 * bench assumes.
 */
export function tickNotes(phase: SocketPhaseResult, expectedIntervalMs: number): string[] {
  const notes: string[] = [];
  const p50 = phase.latency?.p50;
  if (p50 !== undefined && (p50 < -5 || p50 > 10_000)) {
    notes.push(
      `the ${phase.label}'s tick-to-client p50 is ${p50} ms: its tick timestamps do not look like wall-clock emission ` +
        'times (virtual time? a replay feed?), so its latency figures are not meaningful',
    );
  }
  const rate = phase.ticksPerSecond ?? 0;
  if (rate === 0) {
    notes.push(`the ${phase.label} sent no market:tick while recording: is the trading service running?`);
  } else if (Math.abs(1000 / rate - expectedIntervalMs) > 0.1 * expectedIntervalMs) {
    notes.push(
      `the ${phase.label} ticked every ${(1000 / rate).toFixed(0)} ms, the baseline every ${expectedIntervalMs} ms`,
    );
  }
  return notes;
}

/** The REST target: at least 98 % of the asked rate (the generator's own granularity) and p99 ≤ 10 ms. */
export function restVerdict(result: RestResult | undefined): Verdict {
  if (result === undefined) return 'not judged';
  const rateOk = result.achievedRate >= 0.98 * TARGETS.restRate && result.targetRate >= TARGETS.restRate;
  const clean = result.non2xx === 0 && result.errors === 0;
  return rateOk && clean && result.p99 <= TARGETS.restP99Ms ? 'met' : 'missed';
}

/**
 * Memory is judged flat on runs of at least TARGETS.memoryJudgeMinS by the least-squares slope of the whole recorded
 * window (recording starts after the connections and the warm-up). Not by the second half alone: one GC sawtooth
 * (RSS falls after a major GC, then climbs back over minutes) tilts a 5-minute half either way.
 */
export function memoryVerdict(memory: MemorySummary | null | undefined): Verdict {
  if (!memory || memory.spanS < TARGETS.memoryJudgeMinS || memory.slopeMbPerMin === null) return 'not judged';
  return memory.slopeMbPerMin <= TARGETS.memorySlopeMbPerMin ? 'met' : 'missed';
}
export interface BenchReport {
  clients: number;
  processes: number;
  durationS: number;
  machine: { cpus: number; node: string; openFilesSoftLimit: number | null };
  product?: SocketPhaseResult;
  /** present with --nodes ≥ 2 */
  cluster?: SocketPhaseResult;
  baseline?: SocketPhaseResult;
  /** present with --rounds ≥ 2: each round's figures; `product` and `baseline` then pool every round's samples */
  rounds?: RoundResult[];
  rest: RestResult[];
  notes: string[];
}
