// Benchmark of the order fan-out at zero broker latency: one signal through the trading runtime's own fan-out to
// 1,000 paper accounts whose paper brokers answer and fill at once, persisted by the SQLite store (the `runtime`
// bench's set-up, runtimeFanout.ts). What it measures is the engine and the store, not a broker.
import { pathToFileURL } from 'node:url';
import { asyncScheduler } from 'rxjs';
import { PaperBroker, type QuoteSource } from '@optionpilot/engine';
import type { BenchResult } from '../../engine/bench/types';
import { runtimeFanoutOnce } from './runtimeFanout';

const ACCOUNTS = 1_000;
const WARMUP_ROUNDS = 1;
const ROUNDS = 3;

/** One measured fan-out. */
export interface FanoutRound {
  /** wall clock from the signal persisted as executed to the last trade row committed */
  readonly ms: number;
  /** CPU time of the process from the executing tick to the last trade row (user + system) */
  readonly cpuMs: number;
  /** trades persisted */
  readonly opened: number;
}

/** A quote for any option: the paper brokers fill at it. */
const quotes: QuoteSource = {
  getQuote: (symbol) => ({ symbol, time: Date.now(), bid: 100, ask: 100.5, ltp: 100.25 }),
};

/** One fan-out on a fresh database: every account's paper broker at latency 0. */
export async function fanOutOnce(accounts = ACCOUNTS): Promise<FanoutRound> {
  const run = await runtimeFanoutOnce({
    accounts,
    broker: (index) =>
      new PaperBroker({ quotes, scheduler: asyncScheduler, latencyMs: 0, idPrefix: `acct-${index}-` }),
    optionLtp: 100.25,
  });
  return {
    ms: run.allOpenedAt > 0 ? run.allOpenedAt - run.executedAt : Number.NaN,
    cpuMs: run.cpuMs,
    opened: run.opened,
  };
}

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return value ?? Number.NaN;
}

const fixed1 = (value: number): number => Number(value.toFixed(1));

/** One signal to 1,000 paper accounts (latency 0) through the runtime until every trade is persisted. */
export async function runFanoutBench(): Promise<BenchResult> {
  const warmups: FanoutRound[] = [];
  for (let round = 0; round < WARMUP_ROUNDS; round += 1) warmups.push(await fanOutOnce());
  const rounds: FanoutRound[] = [];
  for (let round = 0; round < ROUNDS; round += 1) rounds.push(await fanOutOnce());
  const times = rounds.map((r) => r.ms).sort((a, b) => a - b);
  const cpu = rounds.map((r) => r.cpuMs).sort((a, b) => a - b);
  const best = times[0] ?? Number.NaN;
  return {
    name: `order fan-out: 1 signal → ${ACCOUNTS.toLocaleString('en-US')} paper accounts through the runtime, every trade persisted (SQLite)`,
    figures: {
      accounts: ACCOUNTS,
      'rounds with a trade not persisted': rounds.filter((r) => r.opened !== ACCOUNTS).length,
      'wall clock, best (ms)': fixed1(best),
      'wall clock, median (ms)': fixed1(median(times)),
      'wall clock, worst (ms)': fixed1(times.at(-1) ?? Number.NaN),
      'CPU, best (ms)': fixed1(cpu[0] ?? Number.NaN),
      'CPU, median (ms)': fixed1(median(cpu)),
      'orders/s (best)': Math.round((ACCOUNTS / best) * 1_000),
      'warm-up rounds, wall clock (ms)': warmups.map((r) => fixed1(r.ms)).join(', '),
    },
    notes: [
      `Best, median and worst of ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up round (reported separately); each round builds a fresh SQLite database with 1,000 users, outside the timed span.`,
      'Timed from the signal persisted as executed (the entry desk starts its fan-out) to the last trade row committed: per account the entry order created SUBMITTED, placed, ACCEPTED and FILLED, each version persisted, then the trade, its order link and its log.',
      'Paper latency 0 and real time: this measures the engine and the store, not a broker. CPU time beside wall clock because the machine may be shared. Reported, never asserted.',
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runFanoutBench(), null, 2));
}
