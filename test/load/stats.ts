// The bench's numbers (pure, unit-tested): a sparse latency histogram that child processes fill and send back over
// IPC, nearest-rank percentiles over it, and the least-squares slope of memory samples.

/** Latencies are bucketed at this resolution; tick timestamps carry whole milliseconds anyway. */
export const DEFAULT_RESOLUTION_MS = 0.1;

export interface Histogram {
  readonly resolutionMs: number;
  /** bucket index (value / resolution, rounded) → count */
  readonly counts: Map<number, number>;
  total: number;
  sum: number;
}

/** What crosses the IPC channel: plain arrays, since a Map does not survive JSON serialisation. */
export interface HistogramWire {
  resolutionMs: number;
  buckets: Array<[number, number]>;
  total: number;
  sum: number;
}

export interface LatencySummary {
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** An empty histogram. */
export function createHistogram(resolutionMs = DEFAULT_RESOLUTION_MS): Histogram {
  if (!(resolutionMs > 0)) throw new RangeError(`resolution must be positive, got ${resolutionMs}`);
  return { resolutionMs, counts: new Map(), total: 0, sum: 0 };
}

/** Adds one sample (ms). Non-finite values are a bug in the caller, not a latency: they are refused. */
export function recordValue(histogram: Histogram, valueMs: number): void {
  if (!Number.isFinite(valueMs)) throw new RangeError(`latency must be finite, got ${valueMs}`);
  const bucket = Math.round(valueMs / histogram.resolutionMs);
  histogram.counts.set(bucket, (histogram.counts.get(bucket) ?? 0) + 1);
  histogram.total += 1;
  histogram.sum += valueMs;
}

/** Adds every sample of `from` into `into` (same resolution required, or the buckets would mean different things). */
export function mergeInto(into: Histogram, from: Histogram): void {
  if (into.resolutionMs !== from.resolutionMs) {
    throw new RangeError(
      `cannot merge histograms of ${into.resolutionMs} and ${from.resolutionMs} ms resolution`,
    );
  }
  for (const [bucket, count] of from.counts) into.counts.set(bucket, (into.counts.get(bucket) ?? 0) + count);
  into.total += from.total;
  into.sum += from.sum;
}

/** The histogram as plain JSON for `process.send`. */
export function toWire(histogram: Histogram): HistogramWire {
  return {
    resolutionMs: histogram.resolutionMs,
    buckets: [...histogram.counts.entries()],
    total: histogram.total,
    sum: histogram.sum,
  };
}

/** Rebuilds a histogram sent by `toWire`. */
export function fromWire(wire: HistogramWire): Histogram {
  return {
    resolutionMs: wire.resolutionMs,
    counts: new Map(wire.buckets),
    total: wire.total,
    sum: wire.sum,
  };
}

/**
 * Nearest-rank percentile: the smallest recorded value (at bucket resolution) with at least `p`% of the samples at
 * or below it. p=0 gives the minimum, p=100 the maximum; null for an empty histogram.
 */
export function percentile(histogram: Histogram, p: number): number | null {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  if (histogram.total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * histogram.total));
  const buckets = [...histogram.counts.keys()].sort((a, b) => a - b);
  let seen = 0;
  for (const bucket of buckets) {
    seen += histogram.counts.get(bucket) ?? 0;
    if (seen >= rank) return roundTo(bucket * histogram.resolutionMs, histogram.resolutionMs);
  }
  // Unreachable while total equals the sum of the counts; the largest bucket is the honest answer if it is not.
  const last = buckets[buckets.length - 1] ?? 0;
  return roundTo(last * histogram.resolutionMs, histogram.resolutionMs);
}

/** count, min, p50, p90, p99, max and mean of a histogram; null when it is empty. */
export function summarize(histogram: Histogram): LatencySummary | null {
  if (histogram.total === 0) return null;
  const at = (p: number) => percentile(histogram, p) ?? 0;
  return {
    count: histogram.total,
    min: at(0),
    p50: at(50),
    p90: at(90),
    p99: at(99),
    max: at(100),
    mean: histogram.sum / histogram.total,
  };
}

// Multiplying by the bucket width leaves float noise (3 × 0.1 = 0.30000000000000004); round to its decimals.
function roundTo(value: number, resolution: number): number {
  const decimals = Math.max(0, Math.ceil(-Math.log10(resolution)));
  return Number(value.toFixed(decimals));
}

/** The middle value (the mean of the two middle ones for an even count); null for no values. */
export function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return null;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export interface Sample {
  /** epoch ms */
  t: number;
  /** any unit; the slope is in that unit per minute */
  v: number;
}

/** Least-squares slope of `v` over time, per minute; null with fewer than two distinct instants. */
export function slopePerMinute(samples: readonly Sample[]): number | null {
  const n = samples.length;
  if (n < 2) return null;
  const t0 = samples[0]?.t ?? 0;
  let sumT = 0;
  let sumV = 0;
  for (const s of samples) {
    sumT += s.t - t0;
    sumV += s.v;
  }
  const meanT = sumT / n;
  const meanV = sumV / n;
  let covariance = 0;
  let variance = 0;
  for (const s of samples) {
    const dt = s.t - t0 - meanT;
    covariance += dt * (s.v - meanV);
    variance += dt * dt;
  }
  if (variance === 0) return null;
  return (covariance / variance) * 60_000;
}

/** `product / baseline`, or null when either is missing or the baseline is zero. */
export function ratio(
  product: number | null | undefined,
  baseline: number | null | undefined,
): number | null {
  if (product == null || baseline == null || baseline === 0) return null;
  return product / baseline;
}
