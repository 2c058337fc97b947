import { describe, expect, it } from 'vitest';
import { bucketOf, summarizeProfile, type CpuProfile } from './cpuprofile';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });

describe('bucketOf', () => {
  it('groups by package, scoped package, node builtin or our source tree', () => {
    expect(bucketOf(frame('query', 'file:///repo/node_modules/knex/lib/runner.js'))).toBe('knex');
    expect(bucketOf(frame('redact', 'file:///repo/node_modules/@pinojs/redact/index.js'))).toBe(
      '@pinojs/redact',
    );
    expect(bucketOf(frame('emit', 'node:events'))).toBe('node:events');
    expect(bucketOf(frame('main', 'file:///work/main/server/dist/main.js'))).toBe('server/dist/main.js');
    expect(bucketOf(frame('(garbage collector)', ''))).toBe('(garbage collector)');
    expect(bucketOf(frame('writev', ''))).toBe('(native)');
  });
});

describe('summarizeProfile', () => {
  it('charges each sample delta to its leaf as self time, largest first', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 3] },
        { id: 2, callFrame: frame('query', 'file:///r/node_modules/knex/a.js') },
        { id: 3, callFrame: frame('redact', 'file:///r/node_modules/@pinojs/redact/i.js') },
      ],
      samples: [2, 3, 3, 2, 3],
      timeDeltas: [1000, 2000, 2000, 1000, 4000],
      startTime: 0,
      endTime: 10_000,
    };
    const summary = summarizeProfile(profile);
    expect(summary.totalMs).toBe(10);
    expect(summary.byBucket).toEqual([
      { name: '@pinojs/redact', ms: 8, percent: 80 },
      { name: 'knex', ms: 2, percent: 20 },
    ]);
    expect(summary.byFunction[0]?.name).toBe('redact @pinojs/redact:10');
    // Samples fall at 1, 3, 5, 6 and 10 ms; 6..10 ms holds the last two (1 ms of knex, 4 ms of redact).
    expect(summarizeProfile(profile, { fromMs: 6, toMs: 10 }).byBucket).toEqual([
      { name: '@pinojs/redact', ms: 4, percent: 80 },
      { name: 'knex', ms: 1, percent: 20 },
    ]);
    expect(summarizeProfile(profile, { fromMs: 7 }).byBucket).toEqual([
      { name: '@pinojs/redact', ms: 4, percent: 100 },
    ]);
  });
});
