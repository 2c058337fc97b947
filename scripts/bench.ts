// `npm run bench [-- pipeline|backtest|sweep|fanout|runtime|positions|telegram|notify|kite ...]`: runs the engine benchmarks one after another in this process
// and prints their figures with the targets beside them. Targets are reported, never enforced: a slow machine
// exits 0 like a fast one; only a benchmark that crashes makes the exit code non-zero.
import { runBacktestBench } from '../engine/bench/backtest';
import { runFanoutBench } from '../server/bench/paperFanout';
import { runPipelineBench } from '../engine/bench/pipeline';
import { runSweepBench } from '../engine/bench/sweep';
import type { BenchResult } from '../engine/bench/types';
import { existsSync } from 'node:fs';
import { runPositionsBench } from '../server/bench/positions';
import { runRuntimeFanoutBench } from '../server/bench/runtimeFanout';
import { runTelegramBench } from '../server/bench/telegram';
import { runNotifyBench } from '../server/bench/notify';
import { BROKER_DEFINITIONS } from '../server/src/brokers/registry';

type Bench = () => Promise<BenchResult>;

/**
 * Each registered broker's fan-out bench, named by its FEED name (`kite`, `fyers`, …): `test/load/<feed>-fanout.ts`
 * exporting `runBrokerFanoutBench`, one signal to 1,000 live accounts at the broker's fake in its own process.
 */
async function brokerBenches(): Promise<Record<string, Bench>> {
  const benches: Record<string, Bench> = {};
  for (const definition of BROKER_DEFINITIONS) {
    const name = definition.feed ?? definition.type;
    const file = new URL(`../test/load/${name}-fanout.ts`, import.meta.url);
    if (!existsSync(file)) continue;
    const module = (await import(file.href)) as { runBrokerFanoutBench?: Bench };
    if (module.runBrokerFanoutBench !== undefined) benches[name] = module.runBrokerFanoutBench;
  }
  return benches;
}

const BROKER_BENCHES = await brokerBenches();

const BENCHES: Record<string, Bench> = {
  pipeline: runPipelineBench,
  backtest: runBacktestBench,
  sweep: runSweepBench,
  fanout: runFanoutBench,
  runtime: runRuntimeFanoutBench,
  positions: runPositionsBench,
  telegram: runTelegramBench,
  notify: runNotifyBench,
  ...BROKER_BENCHES,
};
type BenchName = string;

/** A target of the issue, read from one figure of one benchmark. */
interface Target {
  readonly bench: BenchName;
  readonly target: string;
  readonly figure: string;
  /** true when the figure meets the target */
  readonly met: (value: number) => boolean;
  /** the same measurement in CPU time, shown beside it: on a shared machine wall time includes waiting */
  readonly cpuFigure?: string;
}

const TARGETS: readonly Target[] = [
  {
    bench: 'pipeline',
    target: '≥ 1,000,000 ticks/s through ticks → candles → signals (the runtime, trading off)',
    figure: 'runtime, candles + signals (ticks/s)',
    met: (v) => v >= 1_000_000,
    cpuFigure: 'runtime on CPU time (ticks/s)',
  },
  {
    bench: 'pipeline',
    target: '≥ 1,000,000 ticks/s with the live chart intervals (1/3/5/15 min) built too',
    figure: 'runtime + live chart intervals 1/3/5/15 (ticks/s)',
    met: (v) => v >= 1_000_000,
  },
  {
    bench: 'pipeline',
    target: 'within 5× of the plain-loop baseline (wall)',
    figure: 'runtime slowdown vs plain loop, wall / CPU (×)',
    met: (v) => v <= 5,
  },
  {
    bench: 'backtest',
    target: 'a year of 1-second ticks backtested in ≤ 2 s',
    figure: 'backtest, wall (s)',
    met: (v) => v <= 2,
    cpuFigure: 'backtest, CPU (s)',
  },
  {
    bench: 'sweep',
    target: '100 parameter sets × a year of 1-second ticks in ≤ 30 s',
    figure: 'year, 100 sets on worker threads, wall (s)',
    met: (v) => v <= 30,
    cpuFigure: 'year, 100 sets on worker threads, CPU (s)',
  },
  {
    bench: 'fanout',
    target: '1,000 paper accounts through the runtime, every fill persisted (SQLite) in ≤ 100 ms',
    figure: 'wall clock, best (ms)',
    met: (v) => v <= 100,
    cpuFigure: 'CPU, best (ms)',
  },
  {
    bench: 'runtime',
    target: '1,000 accounts: every entry order sent ≤ 100 ms after the signal (SQLite store)',
    figure: 'signal → slowest account sent (ms)',
    met: (v) => v <= 100,
  },
  {
    bench: 'runtime',
    target:
      '1,000 accounts: every fill persisted ≤ 1 s after the brokers answer (≤ 1,400 ms after the signal)',
    figure: 'signal → all fills persisted (ms)',
    met: (v) => v <= 1_400,
  },
  {
    bench: 'positions',
    target: '1,000 open positions on one contract: ≥ 20,000 option quotes/s through the runtime',
    figure: 'quotes/s (wall)',
    met: (v) => v >= 20_000,
    cpuFigure: 'quotes/s (CPU)',
  },
  {
    bench: 'positions',
    target: 'one quote through 1,000 stops: every exit order sent ≤ 100 ms after it',
    figure: 'stop quote → slowest exit sent (ms)',
    met: (v) => v <= 100,
  },
  {
    bench: 'positions',
    target: 'every close persisted ≤ 1 s after the brokers answer (≤ 1,400 ms after the quote)',
    figure: 'stop quote → all closes persisted (ms)',
    met: (v) => v <= 1_400,
    cpuFigure: 'CPU, stop quote → all closes persisted (ms)',
  },
  {
    bench: 'telegram',
    target: "1,000 Telegram messages all delivered at the bot's allowed rate (≈ 34 s), none dropped",
    figure: 'delivered (of 1,000)',
    met: (v) => v === 1_000,
  },
  {
    bench: 'telegram',
    target: "Telegram: no more than 30 messages in any second (Telegram's per-bot limit)",
    figure: 'busiest 1 s window (messages)',
    met: (v) => v <= 30,
  },
  {
    bench: 'notify',
    target: 'e-mail + Telegram on: 1,000-account fan-out, slowest entry send unchanged within 5 %',
    figure: 'slowest send change',
    met: (v) => v <= 5,
  },
  {
    bench: 'notify',
    target: 'e-mail + Telegram on: 1,000-account fan-out, all fills persisted unchanged within 5 %',
    figure: 'fills persisted change',
    met: (v) => v <= 5,
  },
  {
    bench: 'notify',
    target: 'all 1,000 trade e-mails at the fake SMTP ≤ 10 s after the first trade_opened',
    figure: 'first trade_opened → 1,000th e-mail (s)',
    met: (v) => v <= 10,
  },
  {
    bench: 'notify',
    target: "all 1,000 Telegram messages delivered at the bot's allowed rate (≈ 34 s), none dropped",
    figure: 'Telegram chats reached',
    met: (v) => v === 1_000,
  },
  {
    bench: 'notify',
    target: 'Telegram: none refused by the fake (429)',
    figure: 'refused by the Telegram fake (429)',
    met: (v) => v === 0,
  },
  // Every broker's fan-out bench reports the same figures against the same targets (issues 10 and 17).
  ...Object.keys(BROKER_BENCHES).flatMap((bench): Target[] => [
    {
      bench,
      target: `signal → 1,000 live accounts at the ${bench} fake: every entry sent within 250 ms`,
      figure: 'all entries sent (ms)',
      met: (v) => v <= 250,
      cpuFigure: 'CPU, signal → all fills persisted (ms)',
    },
    {
      bench,
      target: 'every fill persisted within 1 s of the fake’s answers',
      figure: 'last fill persisted after the fake filled it (ms)',
      met: (v) => v <= 1_000,
    },
    {
      bench,
      target: '≤ 10 orders/s per account',
      figure: 'most orders one account sent in any 1 s',
      met: (v) => v <= 10,
    },
  ]),
];

const fmt = (value: string | number): string =>
  typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 2 }) : value;

function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => `  ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd()).join('\n');
}

/** The first number in a figure ("4.2 / 3.1" → 4.2), so ratio pairs compare on their first (wall) value. */
function numberOf(value: string | number | undefined): number | undefined {
  if (typeof value === 'number') return value;
  const n = Number.parseFloat(value ?? '');
  return Number.isFinite(n) ? n : undefined;
}

function parseSelection(args: readonly string[]): BenchName[] {
  const names = Object.keys(BENCHES);
  if (args.length === 0) return names;
  const unknown = args.filter((a) => !names.includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')}; choose from ${names.join(', ')}\n`);
    process.exit(2);
  }
  return names.filter((n) => args.includes(n));
}

async function main(): Promise<number> {
  const selected = parseSelection(process.argv.slice(2));
  const results = new Map<BenchName, BenchResult>();
  let crashed = false;
  process.stdout.write(`engine benchmarks — node ${process.version}, ${process.platform}/${process.arch}\n`);
  for (const name of selected) {
    process.stderr.write(`bench: running ${name}…\n`);
    try {
      const bench = BENCHES[name];
      if (bench === undefined) continue;
      const result = await bench();
      results.set(name, result);
      process.stdout.write(`\n${result.name}\n`);
      process.stdout.write(`${table(Object.entries(result.figures).map(([k, v]) => [k, fmt(v)]))}\n`);
      for (const note of result.notes ?? []) process.stdout.write(`  · ${note}\n`);
    } catch (error) {
      crashed = true;
      process.stdout.write(
        `\n${name}: FAILED TO RUN — ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
  }

  const rows: string[][] = [['target', 'measured', 'figure', '', 'CPU time']];
  for (const t of TARGETS) {
    if (!selected.includes(t.bench)) continue;
    const figures = results.get(t.bench)?.figures;
    const raw = figures?.[t.figure];
    const cpu = t.cpuFigure === undefined ? undefined : figures?.[t.cpuFigure];
    const value = numberOf(raw);
    rows.push([
      t.target,
      raw === undefined ? 'n/a' : fmt(raw),
      t.figure,
      value === undefined ? '?' : t.met(value) ? 'met' : 'MISSED',
      cpu === undefined ? '' : fmt(cpu),
    ]);
  }
  if (rows.length > 1) process.stdout.write(`\ntargets (reported, never enforced)\n${table(rows)}\n`);
  return crashed ? 1 : 0;
}

process.exitCode = await main();
