// The printed tables of `npm run bench:live`: latency, rounds, cluster, memory and REST, with the targets beside the
// figures (pure: unit-tested in report.test.ts).
import {
  clusterVerdict,
  latencyVerdict,
  memoryVerdict,
  restVerdict,
  roundsSpread,
  TARGETS,
  type BenchReport,
  type RoundResult,
  type SocketPhaseResult,
} from './report';

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
