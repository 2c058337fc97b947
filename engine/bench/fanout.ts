// Benchmark of the order fan-out: one signal's entry routed to 1,000 paper accounts until every entry is filled.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { asyncScheduler } from 'rxjs';
import type { Quote } from '../src/core/types';
import { InMemoryOrderStore } from '../src/execution/orderStore';
import type { Order } from '../src/execution/orderTypes';
import { OrderRouter } from '../src/execution/orderRouter';
import { PaperBroker } from '../src/execution/paperBroker';
import type { QuoteSource } from '../src/execution/paperBroker';
import type { BenchResult } from './types';

const ACCOUNTS = 1_000;
const WARMUP_ROUNDS = 3;
const ROUNDS = 7;
const SYMBOL = 'NIFTY24NOV2624000CE';

/** One measured fan-out. */
export interface FanoutRound {
  /** wall clock from the first entry's submission to the last FILLED write completing in the store */
  readonly ms: number;
  /** CPU time of the process over the same span (user + system): what the engine cost, contention aside */
  readonly cpuMs: number;
  /** entries whose FILLED version reached the store */
  readonly filled: number;
  /** entries whose submission was `placed` */
  readonly placed: number;
  /** store writes (create + updates) per order */
  readonly writesPerOrder: number;
}

/**
 * The in-memory store, noting when every entry's FILLED version is durable: the bench stops the clock at the
 * store, not at the router's in-memory `changes$`, so a write the router has only queued does not count.
 */
export class FillWatchingStore extends InMemoryOrderStore {
  private readonly filledIds = new Set<string>();
  private allFilled: (at: number) => void = () => undefined;
  readonly allFilledAt = new Promise<number>((resolve) => {
    this.allFilled = resolve;
  });

  constructor(private readonly expected: number) {
    super();
  }

  get filledCount(): number {
    return this.filledIds.size;
  }

  override async update(order: Order): Promise<void> {
    await super.update(order);
    if (order.state !== 'FILLED') return;
    this.filledIds.add(order.clientOrderId);
    if (this.filledIds.size === this.expected) this.allFilled(performance.now());
  }
}

/** Builds a fresh router, store and one paper broker per account (latency 0), then routes one signal. */
export async function fanOutOnce(round: number, accounts = ACCOUNTS): Promise<FanoutRound> {
  const quote: Quote = { symbol: SYMBOL, time: Date.now(), bid: 100, ask: 100.5, ltp: 100.25 };
  const quotes: QuoteSource = { getQuote: (symbol) => (symbol === SYMBOL ? quote : undefined) };
  const store = new FillWatchingStore(accounts);
  const router = new OrderRouter({ scheduler: asyncScheduler, store, quotes, tag: 'OPBENCH' });
  const accountIds = Array.from({ length: accounts }, (_, i) => `acct-${i}`);
  for (const accountId of accountIds) {
    router.addAccount({
      accountId,
      broker: new PaperBroker({ quotes, scheduler: asyncScheduler, latencyMs: 0, idPrefix: `${accountId}-` }),
    });
  }
  router.start();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const entries = accountIds.map((accountId) =>
    router.submit({
      purpose: 'entry',
      signalId: `bench-${round}`,
      accountId,
      symbol: SYMBOL,
      side: 'BUY',
      quantity: 65,
      type: 'MARKET',
    }),
  );
  const [results, finished] = await Promise.all([Promise.all(entries), store.allFilledAt]);
  const ms = finished - started;
  const used = process.cpuUsage(cpu);
  router.stop();
  return {
    ms,
    cpuMs: (used.user + used.system) / 1_000,
    filled: store.filledCount,
    placed: results.filter((r) => r.status === 'placed').length,
    writesPerOrder: store.writes.length / accounts,
  };
}

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return value ?? Number.NaN;
}

const fixed1 = (value: number): number => Number(value.toFixed(1));

/** Routes one signal to 1,000 paper accounts (latency 0) until every entry is filled in the store; reports time. */
export async function runFanoutBench(): Promise<BenchResult> {
  const warmups: FanoutRound[] = [];
  for (let round = 0; round < WARMUP_ROUNDS; round += 1) warmups.push(await fanOutOnce(-1 - round));
  const rounds: FanoutRound[] = [];
  for (let round = 0; round < ROUNDS; round += 1) rounds.push(await fanOutOnce(round));
  const times = rounds.map((r) => r.ms).sort((a, b) => a - b);
  const cpu = rounds.map((r) => r.cpuMs).sort((a, b) => a - b);
  const best = times[0] ?? Number.NaN;
  const incomplete = rounds.filter((r) => r.filled !== ACCOUNTS || r.placed !== ACCOUNTS).length;
  return {
    name: `order fan-out: 1 signal → ${ACCOUNTS.toLocaleString('en-US')} paper accounts, all FILLED in the store`,
    figures: {
      accounts: ACCOUNTS,
      'rounds with an entry not placed or not FILLED': incomplete,
      'wall clock, best (ms)': fixed1(best),
      'wall clock, median (ms)': fixed1(median(times)),
      'wall clock, worst (ms)': fixed1(times.at(-1) ?? Number.NaN),
      'CPU, best (ms)': fixed1(cpu[0] ?? Number.NaN),
      'CPU, median (ms)': fixed1(median(cpu)),
      'orders/s (best)': Math.round((ACCOUNTS / best) * 1_000),
      'store writes per order': rounds[0]?.writesPerOrder ?? 0,
      'warm-up rounds, wall clock (ms)': warmups.map((r) => fixed1(r.ms)).join(', '),
    },
    notes: [
      `Best, median and worst of ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up rounds (reported separately, not counted); each round builds a fresh router, in-memory store and one paper broker per account, outside the timed span.`,
      'Timed from the first entry submitted to the router (one per account, as the runtime fans a signal out) to the moment the store has completed the FILLED write of every one of the 1,000 entries.',
      'Per order: client id, store.create, per-account rate limiter, store.update(SUBMITTED), placeOrder under the request timeout, ACCEPTED and FILLED updates persisted in order.',
      'Paper latency 0 and real time (asyncScheduler): this measures the engine, not a broker. CPU time beside wall clock because the machine may be shared. Reported, never asserted.',
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runFanoutBench(), null, 2));
}
