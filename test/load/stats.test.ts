import { describe, expect, it } from 'vitest';
import {
  createHistogram,
  fromWire,
  mergeInto,
  percentile,
  ratio,
  recordValue,
  median,
  slopePerMinute,
  summarize,
  toWire,
} from './stats';

function histogramOf(values: readonly number[], resolutionMs?: number) {
  const h = createHistogram(resolutionMs);
  for (const v of values) recordValue(h, v);
  return h;
}

describe('percentile (nearest rank)', () => {
  it('picks the smallest value with at least p% of the samples at or below it', () => {
    // 1..100: the 50th value is 50, the 90th is 90, the 99th is 99.
    const h = histogramOf(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(percentile(h, 50)).toBe(50);
    expect(percentile(h, 90)).toBe(90);
    expect(percentile(h, 99)).toBe(99);
    expect(percentile(h, 100)).toBe(100);
    expect(percentile(h, 0)).toBe(1);
  });

  it('rounds the rank up, so a tail smaller than 1% still sets p99 on small samples', () => {
    // 10 samples: rank of p99 is ceil(9.9) = 10, the maximum — one slow tick out of ten must show.
    const h = histogramOf([1, 1, 1, 1, 1, 1, 1, 1, 1, 500]);
    expect(percentile(h, 99)).toBe(500);
    expect(percentile(h, 90)).toBe(1);
  });

  it('counts repeated values and ignores insertion order', () => {
    const h = histogramOf([30, 10, 20, 10, 10]);
    expect(percentile(h, 60)).toBe(10);
    expect(percentile(h, 61)).toBe(20);
    expect(percentile(h, 80)).toBe(20);
    expect(percentile(h, 81)).toBe(30);
  });

  it('keeps values at the bucket resolution without float noise', () => {
    const h = histogramOf([0.3, 0.34, 12.25]);
    expect(percentile(h, 0)).toBe(0.3);
    expect(percentile(h, 50)).toBe(0.3);
    expect(percentile(h, 100)).toBe(12.3);
  });

  it('is null for an empty histogram and refuses p outside 0..100', () => {
    expect(percentile(createHistogram(), 50)).toBeNull();
    expect(() => percentile(histogramOf([1]), 101)).toThrow(RangeError);
    expect(() => percentile(histogramOf([1]), -1)).toThrow(RangeError);
  });

  it('refuses non-finite samples, which would be a parsing bug rather than a latency', () => {
    expect(() => recordValue(createHistogram(), Number.NaN)).toThrow(RangeError);
  });
});

describe('histograms across processes', () => {
  it('merging the parts gives the same percentiles as one histogram of everything', () => {
    const all = Array.from({ length: 1000 }, (_, i) => (i * 37) % 251);
    const whole = histogramOf(all);
    const merged = createHistogram();
    for (let part = 0; part < 4; part += 1) {
      // Each part goes through the IPC wire format, as the worker's report does.
      const wire = JSON.parse(JSON.stringify(toWire(histogramOf(all.filter((_, i) => i % 4 === part)))));
      mergeInto(merged, fromWire(wire));
    }
    expect(summarize(merged)).toEqual(summarize(whole));
  });

  it('refuses to merge histograms of different resolutions', () => {
    expect(() => mergeInto(createHistogram(0.1), createHistogram(1))).toThrow(RangeError);
  });

  it('summarises count, min, max and mean', () => {
    expect(summarize(histogramOf([2, 4, 9]))).toEqual({
      count: 3,
      min: 2,
      p50: 4,
      p90: 9,
      p99: 9,
      max: 9,
      mean: 5,
    });
    expect(summarize(createHistogram())).toBeNull();
  });
});

describe('median', () => {
  it('is the middle value, the mean of the two middle ones for an even count, and null for none', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('slopePerMinute', () => {
  it('is the least-squares growth per minute, whatever the sampling interval', () => {
    const t0 = 1_700_000_000_000;
    const samples = Array.from({ length: 61 }, (_, s) => ({ t: t0 + s * 1000, v: 100 + s * 0.05 }));
    expect(slopePerMinute(samples)).toBeCloseTo(3, 9);
  });

  it('is zero for a flat series with noise that averages out', () => {
    const samples = [0, 1, 2, 3].map((s) => ({ t: s * 30_000, v: s % 2 === 0 ? 10 : 12 }));
    // Alternating 10/12 rises slightly by least squares; a genuinely flat series is exactly 0.
    expect(slopePerMinute(samples)).toBeGreaterThan(0);
    expect(slopePerMinute([0, 1, 2].map((s) => ({ t: s * 1000, v: 50 })))).toBe(0);
  });

  it('is null with fewer than two distinct instants', () => {
    expect(slopePerMinute([{ t: 1, v: 1 }])).toBeNull();
    expect(
      slopePerMinute([
        { t: 5, v: 1 },
        { t: 5, v: 2 },
      ]),
    ).toBeNull();
  });
});

describe('ratio', () => {
  it('divides product by baseline and is null when either is missing or the baseline is zero', () => {
    expect(ratio(50, 40)).toBe(1.25);
    expect(ratio(null, 40)).toBeNull();
    expect(ratio(50, undefined)).toBeNull();
    expect(ratio(50, 0)).toBeNull();
  });
});
