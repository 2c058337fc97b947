import { describe, expect, it } from 'vitest';
import {
  clusterVerdict,
  formatTable,
  latencyVerdict,
  memoryVerdict,
  renderReport,
  restVerdict,
  summarizeMemory,
  tickNotes,
  type BenchReport,
  type NodeResult,
  type RestResult,
  type SocketPhaseResult,
} from './report';

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
