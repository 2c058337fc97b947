// Result types of `npm run bench:live`, the target checks and the printed tables (pure: unit-tested).
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
/** Left-aligned first column, right-aligned numbers, two spaces between columns. */
export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const all = [header, ...rows];
  const widths = header.map((_, col) => Math.max(...all.map((row) => (row[col] ?? '').length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** A number with `digits` decimals, or `–` when missing. */
export function fmt(value: number | null | undefined, digits = 1): string {
  return value == null || !Number.isFinite(value) ? '–' : value.toFixed(digits);
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

/** The human-readable report: latency, memory and REST tables with the targets beside the figures. */
export function renderReport(report: BenchReport): string {
  const out: string[] = [];
  const phases = [report.product, report.cluster, report.baseline].filter(
    (p): p is SocketPhaseResult => p !== undefined,
  );
  out.push(
    `bench:live — ${report.clients} clients over ${report.processes} processes, ${report.durationS} s measured per ` +
      `socket phase; ${report.machine.cpus} CPUs, Node ${report.machine.node}`,
    '',
  );
  if (phases.length > 0) {
    out.push('Tick-to-client latency (ms), market:tick');
    out.push(
      formatTable(
        [
          'server',
          'clients ok',
          'samples',
          'p50',
          'p90',
          'p99',
          'max',
          'ticks/s',
          'server CPU %',
          'drops',
          'load',
        ],
        phases.map((p) => [
          phaseName(p),
          `${p.connected}/${p.clients}`,
          String(p.latency?.count ?? 0),
          fmt(p.latency?.p50),
          fmt(p.latency?.p90),
          fmt(p.latency?.p99),
          fmt(p.latency?.max),
          fmt(p.ticksPerSecond, 2),
          fmt(p.serverCpuPercent, 0),
          String(p.disconnects),
          fmt(p.load1),
        ]),
      ),
    );
    const { ratio: r, target, verdict } = latencyVerdict(report.product, report.baseline);
    const pooled = report.rounds ? ` over ${report.rounds.length} interleaved rounds' samples` : '';
    out.push(
      `p99 ratio product/baseline${pooled}: ${fmt(r, 2)} (target ≤ ${target.toFixed(1)}) → ${verdict}`,
    );
    if (report.rounds) out.push(...renderRounds(report.rounds, report.clients));
    if (report.cluster) out.push(...renderCluster(report.product, report.cluster));
    out.push('', 'Server memory (RSS, MB) while the clients were connected');
    out.push(
      formatTable(
        [
          'server',
          'idle',
          'start',
          'end',
          'peak',
          'slope MB/min',
          '2nd-half slope',
          'anon start→end',
          'span s',
        ],
        // The cluster's nodes have their own rows in the per-node table.
        phases
          .filter((p) => p.nodes === undefined)
          .map((p) => [
            phaseName(p),
            fmt(p.memory?.idleMb),
            fmt(p.memory?.startMb),
            fmt(p.memory?.endMb),
            fmt(p.memory?.peakMb),
            fmt(p.memory?.slopeMbPerMin, 2),
            fmt(p.memory?.lateSlopeMbPerMin, 2),
            `${fmt(p.memory?.anonStartMb)}→${fmt(p.memory?.anonEndMb)}`,
            fmt(p.memory?.spanS, 0),
          ]),
      ),
    );
    out.push(
      `product memory flat (slope ≤ ${TARGETS.memorySlopeMbPerMin} MB/min over runs ≥ ${TARGETS.memoryJudgeMinS} s): ` +
        memoryVerdict(report.product?.memory),
      '',
    );
  }
  if (report.rest.length > 0) {
    out.push(`REST at a fixed ${report.rest[0]?.targetRate ?? TARGETS.restRate} req/s (latency ms)`);
    out.push(
      formatTable(
        ['route', 'req/s', 'requests', 'p50', 'p90', 'p99', 'max', 'non-2xx', 'errors', 'CPU µs/req', 'load'],
        report.rest.map((r) => [
          r.path,
          fmt(r.achievedRate, 0),
          String(r.requests),
          fmt(r.p50, 2),
          fmt(r.p90, 2),
          fmt(r.p99, 2),
          fmt(r.max, 2),
          String(r.non2xx),
          String(r.errors),
          fmt(r.serverCpuUsPerRequest, 0),
          fmt(r.load1),
        ]),
      ),
    );
    out.push(
      `/api/user/stats target (≥ ${TARGETS.restRate} req/s, p99 ≤ ${TARGETS.restP99Ms} ms): ` +
        restVerdict(report.rest.find((r) => r.path === '/api/user/stats')),
      '',
    );
  }
  for (const p of phases) {
    const events = Object.entries(p.eventsPerClientPerS)
      .map(([name, rate]) => `${name} ${fmt(rate, 2)}/s`)
      .join(', ');
    out.push(
      `${phaseName(p)}: connected in ${fmt(p.connectMs / 1000)} s; events per client: ${events || 'none'}; ` +
        `client processes CPU ${fmt(p.clientsCpuPercent, 0)} %`,
    );
    for (const e of p.connectErrors) out.push(`  connect error: ${e}`);
  }
  const busiest = Math.max(0, ...phases.map((p) => p.load1), ...report.rest.map((r) => r.load1));
  if (busiest > report.machine.cpus) {
    out.push(
      `note: the machine was busy (load average up to ${fmt(busiest)} on ${report.machine.cpus} CPUs): other ` +
        'processes competed with the bench, so absolute figures are pessimistic; rerun on a quiet machine',
    );
  }
  for (const note of report.notes) out.push(`note: ${note}`);
  return out.join('\n');
}

/** `cluster (2 nodes)` for the cluster phase, the label otherwise. */
function phaseName(p: SocketPhaseResult): string {
  return p.nodes === undefined ? p.label : `${p.label} (${p.nodes.length} nodes)`;
}

/** Each round's p50 and p99 on both servers, its ratio, and the rounds' median and count within the target. */
function renderRounds(rounds: readonly RoundResult[], clients: number): string[] {
  const { median, within, judged, target } = roundsSpread(rounds, clients);
  return [
    '',
    'Interleaved rounds (latency ms; both servers up throughout)',
    formatTable(
      ['round', 'first', 'product p50', 'product p99', 'bare p50', 'bare p99', 'p99 ratio'],
      rounds.map((r) => [
        String(r.round),
        r.first,
        fmt(r.product?.p50),
        fmt(r.product?.p99),
        fmt(r.baseline?.p50),
        fmt(r.baseline?.p99),
        fmt(r.ratio, 2),
      ]),
    ),
    `median round ratio ${fmt(median, 2)}; ${within} of ${judged} rounds within ${target.toFixed(1)}`,
  ];
}

/** The cluster's verdict against the single node and its per-node table (latency, CPU, RSS). */
function renderCluster(product: SocketPhaseResult | undefined, cluster: SocketPhaseResult): string[] {
  const { ratio: r, target, verdict } = clusterVerdict(product, cluster);
  const nodes = cluster.nodes ?? [];
  return [
    `p99 ratio cluster/single node: ${fmt(r, 2)} (target ≤ ${target.toFixed(1)}) → ${verdict}`,
    '',
    `Per node of the cluster (latency ms; the leader emits, followers get each tick through Redis)`,
    formatTable(
      ['node', 'role', 'clients', 'samples', 'p50', 'p90', 'p99', 'CPU %', 'RSS idle', 'RSS peak', 'RSS end'],
      nodes.map((n, i) => [
        String(i + 1),
        n.role,
        String(n.clients),
        String(n.latency?.count ?? 0),
        fmt(n.latency?.p50),
        fmt(n.latency?.p90),
        fmt(n.latency?.p99),
        fmt(n.serverCpuPercent, 0),
        fmt(n.memory?.idleMb),
        fmt(n.memory?.peakMb),
        fmt(n.memory?.endMb),
      ]),
    ),
  ];
}
