import { describe, expect, it } from 'vitest';
import {
  clusterVerdict,
  latencyVerdict,
  memoryVerdict,
  poolRounds,
  restVerdict,
  roundsSpread,
  summarizeMemory,
  tickNotes,
  type BenchReport,
  type NodeResult,
  type RestResult,
  type RoundResult,
  type SocketPhaseResult,
} from './report';
import { formatTable, renderReport } from './render';

function phase(label: SocketPhaseResult['label'], p99: number | null, clients = 10): SocketPhaseResult {
  return {
    label,
    clients,
    connected: clients,
    failed: 0,
    connectErrors: [],
    connectMs: 100,
    recordedS: 10,
    latency: p99 === null ? null : { count: 100, min: 1, p50: 2, p90: 3, p99, max: p99, mean: 2 },
    ticksPerSecond: 1,
    eventsPerClientPerS: {},
    disconnects: 0,
    serverCpuPercent: 5,
    clientsCpuPercent: 5,
    load1: 0.5,
    memory: null,
  };
}

const rest = (overrides: Partial<RestResult>): RestResult => ({
  path: '/api/user/stats',
  targetRate: 2000,
  achievedRate: 2000,
  requests: 40_000,
  p50: 1,
  p90: 2,
  p99: 5,
  max: 20,
  non2xx: 0,
  errors: 0,
  serverCpuUsPerRequest: 300,
  load1: 0.5,
  ...overrides,
});

describe('target verdicts', () => {
  it('meets the latency target at exactly 1.0× the baseline p99 up to 3,000 clients and misses above it', () => {
    expect(latencyVerdict(phase('product', 40, 3000), phase('baseline', 40, 3000))).toEqual({
      ratio: 1,
      target: 1,
      verdict: 'met',
    });
    expect(latencyVerdict(phase('product', 41, 3000), phase('baseline', 40, 3000)).verdict).toBe('missed');
    expect(latencyVerdict(phase('product', 51), undefined).verdict).toBe('not judged');
    expect(latencyVerdict(phase('product', null), phase('baseline', 40)).verdict).toBe('not judged');
  });

  it('allows 1.1× the baseline p99 beyond 3,000 clients (10,000 dashboards)', () => {
    expect(latencyVerdict(phase('product', 44, 10_000), phase('baseline', 40, 10_000)).verdict).toBe('met');
    expect(latencyVerdict(phase('product', 45, 10_000), phase('baseline', 40, 10_000)).verdict).toBe(
      'missed',
    );
  });

  it('needs the REST rate, p99 ≤ 10 ms and no failed requests', () => {
    expect(restVerdict(rest({}))).toBe('met');
    expect(restVerdict(rest({ p99: 10.5 }))).toBe('missed');
    expect(restVerdict(rest({ achievedRate: 1500 }))).toBe('missed');
    expect(restVerdict(rest({ non2xx: 3 }))).toBe('missed');
    expect(restVerdict(rest({ targetRate: 500, achievedRate: 500 }))).toBe('missed');
    expect(restVerdict(undefined)).toBe('not judged');
  });

  it('judges memory only on runs of 5 minutes or more, by the slope of the whole window', () => {
    const t0 = 1_700_000_000_000;
    // A GC sawtooth over 10 minutes: climbs 6 MB in 5 minutes, drops back, climbs again; no growth of the floor.
    const sawtooth = Array.from({ length: 601 }, (_, s) => ({
      t: t0 + s * 1000,
      rssMb: 200 + ((s % 300) / 300) * 6,
      anonMb: null,
    }));
    const memory = summarizeMemory(sawtooth, 150);
    expect(memory).toMatchObject({
      idleMb: 150,
      startMb: 200,
      peakMb: expect.closeTo(205.98, 2),
      spanS: 600,
    });
    expect(memoryVerdict(memory)).toBe('met');
    const leaking = summarizeMemory(
      sawtooth.map((s, i) => ({ ...s, rssMb: 200 + i / 30 })), // 2 MB/min throughout
      150,
    );
    expect(memoryVerdict(leaking)).toBe('missed');
    expect(memoryVerdict(summarizeMemory(sawtooth.slice(0, 60), 150))).toBe('not judged');
    expect(summarizeMemory([], null)).toBeNull();
  });
});

describe('formatTable', () => {
  it('pads the first column left-aligned and the others right-aligned', () => {
    const text = formatTable(
      ['server', 'p99'],
      [
        ['product', '41.0'],
        ['baseline', '9.5'],
      ],
    );
    expect(text.split('\n')).toEqual([
      'server     p99',
      '--------  ----',
      'product   41.0',
      'baseline   9.5',
    ]);
  });
});

const node = (role: NodeResult['role'], p99: number, rssPeakMb: number): NodeResult => ({
  role,
  url: `http://127.0.0.1:${role === 'leader' ? 1001 : 1002}`,
  clients: 1500,
  latency: { count: 45_000, min: 1, p50: 20, p90: 40, p99, max: p99 + 10, mean: 22 },
  serverCpuPercent: role === 'leader' ? 7 : 4,
  memory: summarizeMemory(
    [
      { t: 0, rssMb: rssPeakMb - 10, anonMb: null },
      { t: 1000, rssMb: rssPeakMb, anonMb: null },
    ],
    rssPeakMb - 50,
  ),
});

describe('the cluster phase (--nodes)', () => {
  it('meets the target up to 1.2× the single node p99 and misses above it', () => {
    expect(clusterVerdict(phase('product', 50, 3000), phase('cluster', 60, 3000))).toEqual({
      ratio: 1.2,
      target: 1.2,
      verdict: 'met',
    });
    expect(clusterVerdict(phase('product', 50, 3000), phase('cluster', 61, 3000)).verdict).toBe('missed');
    // Faster than the single node is met too: the ratio is cluster over single node, not the other way round.
    expect(clusterVerdict(phase('product', 50), phase('cluster', 30))).toMatchObject({
      ratio: 0.6,
      verdict: 'met',
    });
    expect(clusterVerdict(undefined, phase('cluster', 30)).verdict).toBe('not judged');
    expect(clusterVerdict(phase('product', 50), phase('cluster', null)).verdict).toBe('not judged');
  });

  it('prints the cluster row, the ratio to the single node and each node with its role, CPU and RSS', () => {
    const report: BenchReport = {
      clients: 3000,
      processes: 4,
      durationS: 30,
      machine: { cpus: 2, node: '20.20.2', openFilesSoftLimit: 20_000 },
      product: phase('product', 50, 3000),
      cluster: {
        ...phase('cluster', 66, 3000),
        nodes: [node('leader', 62, 301.5), node('follower', 70, 288.25)],
      },
      rest: [],
      notes: [],
    };
    const text = renderReport(report);
    expect(text).toMatch(/^cluster \(2 nodes\)\s+3000\/3000\s+100\s+2\.0\s+3\.0\s+66\.0/m);
    expect(text).toContain('p99 ratio cluster/single node: 1.32 (target ≤ 1.2) → missed');
    expect(text).toMatch(
      /^1\s+leader\s+1500\s+45000\s+20\.0\s+40\.0\s+62\.0\s+7\s+251\.5\s+301\.5\s+301\.5$/m,
    );
    expect(text).toMatch(
      /^2\s+follower\s+1500\s+45000\s+20\.0\s+40\.0\s+70\.0\s+4\s+238\.3\s+288\.3\s+288\.3$/m,
    );
    // The nodes' memory is in their own table, not a row of dashes in the single-server memory table.
    expect(text).not.toMatch(/^cluster \(2 nodes\)\s+–/m);
  });

  it('prints no cluster lines without --nodes', () => {
    const text = renderReport({
      clients: 10,
      processes: 1,
      durationS: 5,
      machine: { cpus: 2, node: '20.20.2', openFilesSoftLimit: null },
      product: phase('product', 50),
      rest: [],
      notes: [],
    });
    expect(text).not.toMatch(/cluster|Per node/);
    expect(text).toContain('p99 ratio product/baseline: – (target ≤ 1.0) → not judged');
  });
});

describe('interleaved rounds (--rounds)', () => {
  const memory = (peakMb: number) =>
    summarizeMemory(
      [
        { t: 0, rssMb: peakMb - 10, anonMb: null },
        { t: 1000, rssMb: peakMb, anonMb: null },
      ],
      100,
    );
  const round = (n: number, first: RoundResult['first'], product: number, bare: number): RoundResult => ({
    round: n,
    first,
    product: { count: 10, min: 1, p50: 20, p90: 40, p99: product, max: product, mean: 20 },
    baseline: { count: 10, min: 1, p50: 21, p90: 41, p99: bare, max: bare, mean: 21 },
    ratio: product / bare,
  });

  it('pools rounds into one phase: the given latency, summed counts, averaged rates, the worst of the rest', () => {
    const a: SocketPhaseResult = {
      ...phase('product', 50, 3000),
      connected: 3000,
      connectMs: 900,
      connectErrors: ['ECONNRESET'],
      ticksPerSecond: 4,
      eventsPerClientPerS: { 'market:tick': 4 },
      disconnects: 1,
      serverCpuPercent: 8,
      load1: 1.5,
      memory: memory(400),
    };
    const b: SocketPhaseResult = {
      ...phase('product', 90, 3000),
      connected: 2998,
      failed: 2,
      connectMs: 1200,
      connectErrors: ['ECONNRESET', 'timeout'],
      ticksPerSecond: 3.8,
      eventsPerClientPerS: { 'market:tick': 3.8, 'market:candle': 0.02 },
      disconnects: 2,
      serverCpuPercent: 12,
      load1: 2.5,
      memory: memory(380),
    };
    const pooled = { count: 200, min: 1, p50: 2, p90: 3, p99: 77, max: 90, mean: 2 };
    const result = poolRounds([a, b], pooled);
    expect(result).toMatchObject({
      label: 'product',
      clients: 3000,
      connected: 2998,
      failed: 2,
      connectErrors: ['ECONNRESET', 'timeout'],
      connectMs: 1200,
      recordedS: 20,
      latency: pooled,
      disconnects: 3,
      load1: 2.5,
    });
    expect(result.ticksPerSecond).toBeCloseTo(3.9);
    expect(result.serverCpuPercent).toBeCloseTo(10);
    expect(result.eventsPerClientPerS['market:tick']).toBeCloseTo(3.9);
    expect(result.eventsPerClientPerS['market:candle']).toBeCloseTo(0.01);
    expect(result.memory?.peakMb).toBe(400);
    // A round without a CPU reading makes the mean unknown, not a smaller number.
    expect(poolRounds([a, { ...b, serverCpuPercent: null }], pooled).serverCpuPercent).toBeNull();
    expect(() => poolRounds([], pooled)).toThrow(RangeError);
  });

  it('reports the median round ratio and how many rounds were within the target for the client count', () => {
    const rounds = [
      round(1, 'product', 90, 100),
      round(2, 'baseline', 120, 100),
      round(3, 'product', 99, 100),
    ];
    expect(roundsSpread(rounds, 3000)).toEqual({ median: 0.99, within: 2, judged: 3, target: 1.0 });
    const even = [...rounds, round(4, 'baseline', 105, 100)];
    expect(roundsSpread(even, 10_000)).toMatchObject({ median: 1.02, within: 3, judged: 4, target: 1.1 });
    expect(roundsSpread([{ ...round(1, 'product', 1, 1), ratio: null }], 10)).toMatchObject({
      median: null,
      judged: 0,
    });
  });

  it('judges the pooled p99 and prints each round with the order it ran in', () => {
    const text = renderReport({
      clients: 3000,
      processes: 4,
      durationS: 30,
      machine: { cpus: 2, node: '20.20.2', openFilesSoftLimit: 20_000 },
      product: phase('product', 95, 3000),
      baseline: phase('baseline', 100, 3000),
      rounds: [round(1, 'product', 90, 100), round(2, 'baseline', 110, 100)],
      rest: [],
      notes: [],
    });
    expect(text).toContain(
      "p99 ratio product/baseline over 2 interleaved rounds' samples: 0.95 (target ≤ 1.0) → met",
    );
    expect(text).toMatch(/^1\s+product\s+20\.0\s+90\.0\s+21\.0\s+100\.0\s+0\.90$/m);
    expect(text).toMatch(/^2\s+baseline\s+20\.0\s+110\.0\s+21\.0\s+100\.0\s+1\.10$/m);
    expect(text).toContain('median round ratio 1.00; 1 of 2 rounds within 1.0');
  });
});

describe('tick notes', () => {
  it('says nothing of a phase ticking once a second with wall-clock latencies', () => {
    expect(tickNotes(phase('cluster', 20), 1000)).toEqual([]);
  });

  it('names the phase whose timestamps are not the wall clock, whose feed is silent or whose rate is off', () => {
    const virtual = {
      ...phase('cluster', 20),
      latency: { count: 1, min: 1, p50: 60_000, p90: 1, p99: 1, max: 1, mean: 1 },
    };
    expect(tickNotes(virtual, 1000)).toEqual([
      expect.stringMatching(/^the cluster's tick-to-client p50 is 60000 ms/),
    ]);
    expect(tickNotes({ ...phase('product', 20), ticksPerSecond: 0 }, 1000)).toEqual([
      expect.stringMatching(/^the product sent no market:tick/),
    ]);
    expect(tickNotes({ ...phase('product', 20), ticksPerSecond: 4 }, 1000)).toEqual([
      'the product ticked every 250 ms, the baseline every 1000 ms',
    ]);
  });
});
