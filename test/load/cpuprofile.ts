// Summarises a V8 `.cpuprofile` (from `npm run bench:live -- --cpu-prof`): where the product's CPU time went,
// as self time per function and per package/file.
// Usage: `npx tsx test/load/cpuprofile.ts <file> [--top N] [--from S] [--to S]`; --from/--to (seconds from the
// profile's start, which bench:live prints for its recording window) keep the steady state only, without start-up,
// the connection storm and the shutdown.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileRow {
  name: string;
  ms: number;
  percent: number;
}

/** Which bucket a frame's time goes to: a package under node_modules, a source file of ours, or V8/Node itself. */
export function bucketOf(frame: CallFrame): string {
  const url = frame.url;
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(/^.*\/(server|engine|web)\//, '$1/');
}

/**
 * Self time per function and per bucket, largest first; each sample's delta is charged to its leaf node. `fromMs` /
 * `toMs` (from the profile's start) keep only the samples of a window, e.g. the bench's recording window.
 */
export function summarizeProfile(
  profile: CpuProfile,
  options: { top?: number; fromMs?: number; toMs?: number } = {},
): { byFunction: ProfileRow[]; byBucket: ProfileRow[]; totalMs: number } {
  const { top = 20, fromMs = 0, toMs = Infinity } = options;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    atUs += delta;
    if (atUs >= fromMs * 1000 && atUs <= toMs * 1000) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byBucket = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    const bucket = bucketOf(frame);
    const fn = `${frame.functionName || '(anonymous)'} ${bucket}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, percent: totalUs > 0 ? (us / totalUs) * 100 : 0 }));
  return { byFunction: rows(byFunction), byBucket: rows(byBucket), totalMs: totalUs / 1000 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, ...rest] = process.argv.slice(2);
  const flag = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? Number(rest[i + 1]) : undefined;
  };
  if (file === undefined) {
    process.stderr.write(
      'usage: npx tsx test/load/cpuprofile.ts <file.cpuprofile> [--top N] [--from S] [--to S]\n',
    );
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const from = flag('--from');
  const to = flag('--to');
  const { byFunction, byBucket, totalMs } = summarizeProfile(profile, {
    top: flag('--top') ?? 25,
    fromMs: from === undefined ? 0 : from * 1000,
    toMs: to === undefined ? Infinity : to * 1000,
  });
  const print = (title: string, rows: ProfileRow[]) => {
    process.stdout.write(`\n${title}\n`);
    for (const r of rows) {
      process.stdout.write(
        `${r.percent.toFixed(1).padStart(6)} %  ${r.ms.toFixed(0).padStart(7)} ms  ${r.name}\n`,
      );
    }
  };
  process.stdout.write(`${(totalMs / 1000).toFixed(1)} s of samples\n`);
  print('self time by package / file', byBucket);
  print('self time by function', byFunction);
}
