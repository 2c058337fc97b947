// A strict parser of the Prometheus text exposition format (version 0.0.4), for tests: what prom-client writes must
// be readable by a Prometheus server, so every line is checked against the format's grammar rather than
// pattern-matched for the figures a test wants. It refuses what Prometheus would refuse (a sample before its TYPE,
// a malformed name, label or value, a repeated series) and checks the histogram rules a scraper relies on
// (cumulative buckets ending in +Inf, +Inf equal to _count).
// Grammar: https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<string>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Readonly<Record<MetricType, readonly string[]>> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/** Prometheus reads values with Go's strconv.ParseFloat, which takes NaN and Inf in any case (prom-client writes "Nan"). */
function parseValue(text: string, line: number): number {
  if (/^nan$/i.test(text)) return Number.NaN;
  if (/^\+?inf(inity)?$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
    throw new Error(`line ${line}: bad value "${text}"`);
  return Number(text);
}

/** Reads `{a="x",b="y\"z"}` from `text` at `start` (the `{`); returns the labels and the index after `}`. */
function parseLabels(
  text: string,
  start: number,
  line: number,
): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  while (text[i] !== '}') {
    const eq = text.indexOf('=', i);
    const name = text.slice(i, eq).trim();
    if (eq < 0 || !LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name "${name}"`);
    if (name in labels) throw new Error(`line ${line}: label "${name}" repeated`);
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label "${name}" value is not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j += 1) {
      if (text[j] !== '\\') {
        value += text[j];
        continue;
      }
      j += 1;
      const escaped = text[j];
      if (escaped === 'n') value += '\n';
      else if (escaped === '\\' || escaped === '"') value += escaped;
      else throw new Error(`line ${line}: bad escape in label "${name}"`);
    }
    if (j >= text.length) throw new Error(`line ${line}: label "${name}" value is not closed`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i += 1;
    else if (text[i] !== '}') throw new Error(`line ${line}: expected , or } after label "${name}"`);
  }
  return { labels, end: i + 1 };
}

/** Every family of `text` by name; throws naming the line of the first thing Prometheus would not accept. */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const helps = new Map<string, string>();
  const familyOfSample = new Map<string, MetricFamily>();
  const seen = new Set<string>();
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    if (raw.startsWith('#')) {
      const [, keyword, name, ...rest] = raw.split(' ');
      if (keyword === 'HELP' && name !== undefined) helps.set(name, rest.join(' '));
      if (keyword !== 'TYPE' || name === undefined) return;
      const type = rest[0] ?? '';
      if (!METRIC_NAME.test(name) || !TYPES.has(type)) throw new Error(`line ${line}: bad TYPE line`);
      if (families.has(name)) throw new Error(`line ${line}: TYPE of ${name} repeated`);
      const family: MetricFamily = {
        name,
        type: type as MetricType,
        help: helps.get(name) ?? '',
        samples: [],
      };
      families.set(name, family);
      for (const suffix of SUFFIXES[family.type]) familyOfSample.set(name + suffix, family);
      return;
    }
    const nameEnd = raw.search(/[{ ]/);
    const name = nameEnd < 0 ? raw : raw.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name "${name}"`);
    const family = familyOfSample.get(name);
    if (family === undefined) throw new Error(`line ${line}: sample ${name} has no TYPE before it`);
    const { labels, end } =
      raw[nameEnd] === '{' ? parseLabels(raw, nameEnd, line) : { labels: {}, end: nameEnd };
    const [valueText, timestamp, extra] = raw.slice(end).trim().split(/ +/);
    if (
      valueText === undefined ||
      extra !== undefined ||
      (timestamp !== undefined && !/^-?\d+$/.test(timestamp))
    ) {
      throw new Error(`line ${line}: expected "value [timestamp]"`);
    }
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`line ${line}: series ${key} repeated`);
    seen.add(key);
    family.samples.push({ name, labels, value: parseValue(valueText, line) });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** Buckets of each label set are cumulative, end at +Inf, and +Inf equals _count. */
function checkHistogram(family: MetricFamily): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  const keyOf = (labels: Readonly<Record<string, string>>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([name]) => name !== 'le')
        .sort(),
    );
  for (const sample of family.samples) {
    const entry = series.get(keyOf(sample.labels)) ?? { buckets: [] };
    series.set(keyOf(sample.labels), entry);
    if (sample.name.endsWith('_bucket')) {
      const le = sample.labels.le;
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([parseValue(le, 0), sample.value]);
    } else if (sample.name.endsWith('_count')) entry.count = sample.value;
  }
  for (const [key, { buckets, count }] of series) {
    const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i += 1) {
      if ((sorted[i]?.[1] ?? 0) < (sorted[i - 1]?.[1] ?? 0))
        throw new Error(`${family.name}${key}: buckets fall`);
    }
    const last = sorted[sorted.length - 1];
    if (last?.[0] !== Number.POSITIVE_INFINITY || last[1] !== count) {
      throw new Error(`${family.name}${key}: the +Inf bucket must equal _count`);
    }
  }
}

/** The value of the sample `name` whose labels include `labels`, or undefined when there is none. */
export function sampleValue(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      if (Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) return sample.value;
    }
  }
  return undefined;
}
