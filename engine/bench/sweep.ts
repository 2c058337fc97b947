// Benchmark of parameter sweeps: many sets in one pass of the runtime (the cost of one more set), and 100 sets over a
// year of generated 1-second ticks on worker threads, as `npm run backtest -- --sweep GRID --generate 2026` runs them.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generatedSessionTicks } from '../src/backtest/generatedTicks';
import { parseSweepGrid, toSweepSet } from '../src/backtest/sweepGrid';
import type { GridSet } from '../src/backtest/sweepGrid';
import { SweepPass } from '../src/backtest/sweepPass';
import { runSweep } from '../src/backtest/sweepPool';
import { parseContractSpecs, underlyingSpec } from '../src/calendar/contractSpecs';
import { createExchangeCalendar } from '../src/calendar/exchangeCalendar';
import { createExpiryCalendar } from '../src/calendar/expiry';
import { BUNDLED_CALENDAR_URL, readCalendarFile } from '../src/calendar/readCalendarFile';
import contractsJson from '../data/nse-contracts.json' with { type: 'json' };
import type { BenchResult } from './types';

const YEAR = 2026;
/** The scaling runs: one month in one thread, so 100 sets stay within minutes. */
const MONTH = { from: `${YEAR}-01-01`, to: `${YEAR}-01-31`, seed: YEAR };

/**
 * 100 sets a trader might try: stop-loss × target × trailing × setup length (5 × 5 × 2 × 2), on 1-minute candles, 1
 * lot — the grid format of docs/backtesting.md.
 */
export const BENCH_GRID = {
  vary: {
    stopLoss: [10, 15, 20, 25, 30],
    target: [20, 30, 40, 60, 80],
    trailing: [true, false],
    consecutiveCandles: [3, 4],
  },
};

interface Timing {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly trades: number;
}

async function timed(run: () => Promise<number>): Promise<Timing> {
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const trades = await run();
  const cpu = process.cpuUsage(cpuStart);
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    trades,
  };
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Sets over a month in one pass on this thread, generating the ticks as they go. */
async function onePass(sets: readonly GridSet[]): Promise<Timing> {
  const { data } = await readCalendarFile(fileURLToPath(BUNDLED_CALENDAR_URL), { now: Date.now() });
  const calendar = createExchangeCalendar(data);
  const expiries = createExpiryCalendar(calendar, underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY'));
  return timed(async () => {
    const pass = new SweepPass({ sets: sets.map(toSweepSet), calendar, expiries, iv: 0.14 });
    for (const tick of generatedSessionTicks(calendar, MONTH)) {
      const pending = pass.push(tick);
      if (pending !== undefined) await pending;
    }
    const results = await pass.finish();
    return results.reduce((n, r) => n + r.metrics.trades, 0);
  });
}

/** 1, 10 and 100 sets over a month in one pass each, then 100 sets over a year on worker threads. */
export async function runSweepBench(): Promise<BenchResult> {
  const all = parseSweepGrid(BENCH_GRID);
  const one = await onePass(all.slice(0, 1));
  const ten = await onePass(all.filter((_, i) => i % 10 === 0));
  const hundred = await onePass(all);
  const workers = availableParallelism();
  const year = await timed(async () => {
    const outcome = await runSweep({
      source: { kind: 'generated', from: `${YEAR}-01-01`, to: `${YEAR}-12-31`, seed: YEAR },
      sets: all,
    });
    return outcome.results.reduce((n, r) => n + r.figures.metrics.trades, 0);
  });
  const perSet = (t: Timing, n: number) => round((t.seconds - one.seconds) / (n - 1), 3);
  return {
    name: `sweep: 100 parameter sets over a year of 1-second ticks (${YEAR})`,
    figures: {
      'month, 1 set in one pass, wall / CPU (s)': `${round(one.seconds)} / ${round(one.cpuSeconds)}`,
      'month, 10 sets in one pass, wall / CPU (s)': `${round(ten.seconds)} / ${round(ten.cpuSeconds)}`,
      'month, 100 sets in one pass, wall / CPU (s)': `${round(hundred.seconds)} / ${round(hundred.cpuSeconds)}`,
      'month, each set beyond the first, 10 / 100 sets (s)': `${perSet(ten, 10)} / ${perSet(hundred, 100)}`,
      'month, 100 sets in one pass vs 1 set (×)': round(hundred.seconds / one.seconds, 1),
      'month, trades of 1 / 10 / 100 sets': `${one.trades} / ${ten.trades} / ${hundred.trades}`,
      'worker threads': workers,
      'year, 100 sets on worker threads, wall (s)': round(year.seconds),
      'year, 100 sets on worker threads, CPU (s)': round(year.cpuSeconds),
      'year, trades of the 100 sets': year.trades,
    },
    notes: [
      `Sets: stop-loss 10–30 × target 20–80 × trailing on/off × 3 or 4 candles (docs/backtesting.md grid format), 1-minute candles, IV 14 %, 1 lot. Ticks generated on the fly (seeded random walk, the backtest bench's), one a second through every regular session.`,
      'The month runs are one pass on this thread: the step from 1 to 10 to 100 sets is the cost of one more strategy and account in the runtime, against a pass of one set (which is a single backtest).',
      `The year run is the CLI's path: the sets planned into one pass per worker thread (tinypool), each pass generating the year itself. CPU is the whole process's, all threads.`,
      'Target: 100 sets × a year ≤ 30 s on a 2-core machine. Reported, never asserted.',
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runSweepBench(), null, 2));
}
