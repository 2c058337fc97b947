import { describe, expect, it } from 'vitest';
import {
  formatTable,
  latencyVerdict,
  memoryVerdict,
  restVerdict,
  summarizeMemory,
  type RestResult,
  type SocketPhaseResult,
} from './report';

function phase(label: 'product' | 'baseline', p99: number | null): SocketPhaseResult {
  return {
    label,
    clients: 10,
    connected: 10,
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
  it('meets the latency target at exactly 1.25× the baseline p99 and misses above it', () => {
    expect(latencyVerdict(phase('product', 50), phase('baseline', 40))).toEqual({
      ratio: 1.25,
      verdict: 'met',
    });
    expect(latencyVerdict(phase('product', 51), phase('baseline', 40)).verdict).toBe('missed');
    expect(latencyVerdict(phase('product', 51), undefined).verdict).toBe('not judged');
    expect(latencyVerdict(phase('product', null), phase('baseline', 40)).verdict).toBe('not judged');
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
