// Benchmark of the order fan-out: one signal's entry routed to 1,000 paper accounts until every entry is filled.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { asyncScheduler, filter } from 'rxjs';
import type { Quote } from '../src/core/types';
import { InMemoryOrderStore } from '../src/execution/orderStore';
import { OrderRouter } from '../src/execution/orderRouter';
import { PaperBroker } from '../src/execution/paperBroker';
import type { QuoteSource } from '../src/execution/paperBroker';
import type { BenchResult } from './types';

const ACCOUNTS = 1_000;
const ROUNDS = 3;
const SYMBOL = 'NIFTY24NOV2624000CE';

interface Round {
  ms: number;
  filled: number;
  writes: number;
}

async function fanOutOnce(round: number): Promise<Round> {
  const quote: Quote = { symbol: SYMBOL, time: Date.now(), bid: 100, ask: 100.5, ltp: 100.25 };
  const quotes: QuoteSource = { getQuote: (symbol) => (symbol === SYMBOL ? quote : undefined) };
  const store = new InMemoryOrderStore();
  const router = new OrderRouter({ scheduler: asyncScheduler, store, quotes, tag: 'OPBENCH' });
  const accountIds = Array.from({ length: ACCOUNTS }, (_, i) => `acct-${i}`);
  for (const accountId of accountIds) {
    router.addAccount({
      accountId,
      broker: new PaperBroker({ quotes, scheduler: asyncScheduler, latencyMs: 0, idPrefix: `${accountId}-` }),
    });
  }
  router.start();
  const filled = new Set<string>();
  let allFilled: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allFilled = resolve;
  });
  const subscription = router.changes$
    .pipe(filter((order) => order.state === 'FILLED'))
    .subscribe((order) => {
      filled.add(order.clientOrderId);
      if (filled.size === ACCOUNTS) allFilled();
    });
  const started = performance.now();
  await router.routeEntry({ signalId: `bench-${round}`, accountIds, symbol: SYMBOL, quantity: 65 });
  await done;
  const ms = performance.now() - started;
  subscription.unsubscribe();
  router.stop();
  return { ms, filled: filled.size, writes: store.writes.length };
}

/** Routes one signal to 1,000 paper accounts (latency 0) until every entry is filled; reports time and rate. */
export async function runFanoutBench(): Promise<BenchResult> {
  await fanOutOnce(-1); // warm-up
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round += 1) rounds.push(await fanOutOnce(round));
  const times = rounds.map((r) => r.ms).sort((a, b) => a - b);
  const best = times[0] ?? Number.NaN;
  const median = times[Math.floor(times.length / 2)] ?? Number.NaN;
  const last = rounds.at(-1);
  return {
    name: `order fan-out: 1 signal → ${ACCOUNTS.toLocaleString('en-US')} paper accounts`,
    figures: {
      accounts: ACCOUNTS,
      'orders filled': last?.filled ?? 0,
      'wall clock, best (ms)': Number(best.toFixed(1)),
      'wall clock, median (ms)': Number(median.toFixed(1)),
      'orders/s (best)': Math.round((ACCOUNTS / best) * 1_000),
      'store writes per order': last ? Number((last.writes / ACCOUNTS).toFixed(2)) : 0,
    },
    notes: [
      `Best and median of ${ROUNDS} rounds after a warm-up; each round builds a fresh router, in-memory store and one paper broker per account.`,
      'Per order: client id, store.create, per-account rate limiter, store.update(SUBMITTED), placeOrder with a timeout timer, fill update applied and persisted.',
      'Paper latency 0 and real time (asyncScheduler): this measures the engine, not a broker. Reported, never asserted.',
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runFanoutBench(), null, 2));
}
