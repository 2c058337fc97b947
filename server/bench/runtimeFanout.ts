// Benchmark of the live fan-out through the trading runtime with the real SQLite store: one executed signal, 1,000
// eligible accounts (read by the real accounts directory), each with its own broker fake that answers after a
// random 50–400 ms and then reports the fill. Measures when every entry order was sent (after its order row was
// persisted) and when every fill was persisted as a trade. Targets: all sent ≤ 100 ms after the signal, all fills
// persisted ≤ 1 s; per-account ≤ 10 orders/s held by the router's limiter. Reported, never asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { asyncScheduler, Subject } from 'rxjs';
import {
  DEFAULT_STRATEGY_PARAMS,
  PAPER_CAPABILITIES,
  TradingRuntime,
  alwaysOpenCalendar,
  createScaledScheduler,
  type Broker,
  type BrokerOrderSnapshot,
  type RuntimeEvent,
} from '@optionpilot/engine';
import type { BenchResult } from '../../engine/bench/types';
import { createManualClock } from '../src/clock';
import {
  closeDatabase,
  insertUser,
  migrateLatest,
  openDatabase,
  saveTradingSettings,
  updateUser,
} from '../src/db';
import type { Realtime } from '../src/realtime/publisher';
import { createAccountDirectory } from '../src/trading/accounts';
import { createMarketContext } from '../src/trading/market';
import { createRuntimeStore } from '../src/trading/runtimeStore';

const ACCOUNTS = 1_000;
const MIN_DELAY_MS = 50;
const MAX_DELAY_MS = 400;

/** A Realtime that goes nowhere: the bench measures the engine and the store, not socket fan-out. */
const quietRealtime: Realtime = {
  toSocket: () => undefined,
  toUser: () => undefined,
  toAdmins: () => undefined,
  toMarket: () => undefined,
  endSessions: () => Promise.resolve(),
  connectedUserIds: () => Promise.resolve([]),
  onSync: () => undefined,
  syncHandler: () => undefined,
};

/** A seeded xorshift in [0, 1): the benches' brokers answer after the same delays on every run. */
export function seededRandom(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
}

/** A broker that answers after 50–400 ms (seeded), then reports the fill on its update stream. */
export function slowBroker(sent: number[], random: () => number): Broker {
  const updates = new Subject<BrokerOrderSnapshot>();
  let seq = 0;
  return {
    capabilities: PAPER_CAPABILITIES,
    placeOrder(request) {
      sent.push(performance.now());
      seq += 1;
      const brokerOrderId = `B${seq}`;
      const delay = MIN_DELAY_MS + random() * (MAX_DELAY_MS - MIN_DELAY_MS);
      return new Promise((resolve) => {
        setTimeout(() => {
          resolve({ brokerOrderId });
          setImmediate(() =>
            updates.next({
              clientOrderId: request.clientOrderId,
              brokerOrderId,
              status: 'FILLED',
              filledQty: request.quantity,
              avgPrice: 100,
              time: Date.now(),
            }),
          );
        }, delay);
      });
    },
    modifyOrder: () => Promise.resolve(),
    cancelOrder: () => Promise.resolve(),
    getOrder: () => Promise.resolve(undefined),
    getPositions: () => Promise.resolve([]),
    orderUpdates$: updates.asObservable(),
  };
}

/** How a fan-out through the runtime is set up. */
export interface RuntimeFanoutOptions {
  readonly accounts: number;
  /** the broker of the i-th account (0-based); the runtime asks once, when it registers the account */
  readonly broker: (index: number) => Broker;
  /** the engine clock's start (default now): a broker fake lists one weekly expiry, and the runtime picks by date */
  readonly startAt?: number;
  /**
   * engine clock speed (default 60: a minute's candle closes in a second). A signal stays armed for a minute of
   * engine time, in which the live accounts' brokers are readied: 1,000 of them need a real minute (speed 1).
   */
  readonly speed?: number;
  /** the accounts trade live (default paper): their brokers are readied when the signal arms, stops rest there */
  readonly live?: boolean;
  /** the LTP quoted for each option the runtime subscribes (a broker that needs market protection prices from it) */
  readonly optionLtp?: number;
  /** awaited once the signal armed and the accounts are registered, before the executing tick (order sockets) */
  readonly ready?: () => Promise<void>;
  /** called once the runtime started (to watch its router) */
  readonly started?: (runtime: TradingRuntime) => void;
  /** every runtime event, after the rig's own bookkeeping */
  readonly events?: (event: RuntimeEvent) => void;
  /** engine ms before an unfilled order is given up (entries) or its exit sent again (default the runtime's) */
  readonly fillTimeoutMs?: number;
}

/** What one fan-out measured: `performance.now()` instants, and the epoch ms of the signal for broker fakes' clocks. */
export interface RuntimeFanoutRun {
  readonly accounts: number;
  /** the executing tick was handed to the runtime */
  readonly signalSeen: number;
  /** the signal was persisted as executed: the fan-out starts */
  readonly executedAt: number;
  /** `Date.now()` at `executedAt` */
  readonly executedAtEpoch: number;
  /** every account's trade was persisted (0 when not all were within 60 s) */
  readonly allOpenedAt: number;
  readonly opened: number;
  /** trade rows in the database after the run */
  readonly tradesPersisted: number;
  /** CPU time (user + system) of this process from the executing tick to every trade persisted */
  readonly cpuMs: number;
}

/** What {@link openFanoutRig} sets up: the runtime of `accounts` accounts on a fresh SQLite store, before any signal. */
export interface FanoutRig {
  readonly runtime: TradingRuntime;
  /** the engine clock (60× real time by default, so a minute's candle closes in a second) */
  readonly scheduler: ReturnType<typeof createScaledScheduler>;
  readonly db: ReturnType<typeof openDatabase>;
  /** Drives a bullish minute and a breakout tick: the signal executes and fans out to every account. */
  enterAll(): Promise<RuntimeFanoutRun>;
  /** stops the runtime and removes the database */
  close(): Promise<void>;
}

/**
 * The fan-out's set-up, shared by every bench that trades many accounts through the runtime with the real SQLite
 * store (entries, broker fakes, open positions): real users with active subscriptions read by the real accounts
 * directory, the server's runtime store, one broker per account, on a fresh database in a temporary DATA_DIR.
 */
export async function openFanoutRig(options: RuntimeFanoutOptions): Promise<FanoutRig> {
  const { accounts } = options;
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-bench-'));
  const db = openDatabase({ dataDir: dir });
  const removeDatabase = async () => {
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await migrateLatest(db);
    const now = Date.now();
    const indexOf = new Map<string, number>();
    for (let i = 0; i < accounts; i += 1) {
      const user = await insertUser(db.knex, {
        email: `bench${i}@example.com`,
        first_name: 'Bench',
        last_name: String(i),
        password_hash: 'x',
      });
      indexOf.set(String(user.id), i);
      await updateUser(db.knex, user.id, {
        subscription_status: 'active',
        subscription_start_at: now - 86_400_000,
        subscription_end_at: now + 86_400_000,
      });
      await saveTradingSettings(db.knex, user.id, { bot_enabled: true, trade_quantity: 1 });
    }

    const startAt = options.startAt ?? now;
    const market = createMarketContext({ mode: 'always', now: startAt });
    const params = { ...DEFAULT_STRATEGY_PARAMS, consecutiveCandles: 1, minMovement: 1, entryOffset: 1 };
    const strategies = [{ id: '1', name: 'bench', kind: 'consecutive_breakout' as const, params }];
    const set = {
      controls: { params, squareOffTime: '15:15', maxOrdersPerSecond: 10, algoTag: 'BENCH' },
      strategies,
      defaultId: '1',
    };
    // The engine clock runs 60× (by default) so a minute's candle closes in a second; broker delays stay real ms.
    const speed = options.speed ?? 60;
    const scheduler = createScaledScheduler({ speed, base: asyncScheduler, startAt });
    const store = createRuntimeStore({
      db,
      publisher: quietRealtime,
      brokerOf: () => 'bench',
      strategyRowId: () => null,
    });
    const directory = createAccountDirectory({
      db,
      config: { simSession: 'always' },
      clock: createManualClock(startAt),
      market: () => market,
      strategySet: () => set,
      // the runtime below: the directory asks for it only once trading runs
      runtime: () => engine,
    });
    // Live accounts as the server has them once their broker session is known (its connection routes mark them).
    const accountsOf: typeof directory =
      options.live === true
        ? {
            ...directory,
            eligible: async (input) =>
              (await directory.eligible(input)).map((account) => ({ ...account, paper: false })),
          }
        : directory;
    let executedAt = 0;
    let executedAtEpoch = 0;
    let opened = 0;
    let allOpenedAt = 0;
    let allOpened: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      allOpened = resolve;
    });
    const engine: TradingRuntime = new TradingRuntime({
      calendar: alwaysOpenCalendar,
      expiries: market.expiries,
      scheduler,
      quotes: {
        subscribe: (symbol) => {
          const ltp = options.optionLtp;
          if (ltp !== undefined) engine.onQuote({ symbol, time: scheduler.now(), bid: ltp, ask: ltp, ltp });
        },
        unsubscribe: () => undefined,
      },
      brokers: (accountId) => options.broker(indexOf.get(accountId) ?? -1),
      store,
      accounts: accountsOf,
      strategies,
      algoTag: 'BENCH',
      // As the server runs it: accounts are registered (and live brokers readied) when the signal arms.
      prepareArmedEntries: true,
      ...(options.fillTimeoutMs === undefined ? {} : { fillTimeoutMs: options.fillTimeoutMs }),
      events: (event) => {
        if (event.kind === 'signal' && event.event.kind === 'executed') {
          executedAt = performance.now();
          executedAtEpoch = Date.now();
        }
        if (event.kind === 'trade-opened') {
          opened += 1;
          if (opened === accounts) {
            allOpenedAt = performance.now();
            allOpened();
          }
        }
        options.events?.(event);
      },
    });
    engine.start();
    options.started?.(engine);

    const enterAll = async (): Promise<RuntimeFanoutRun> => {
      // A bullish minute, then a tick through its high + 1 in the next minute executes a CALL. A clock that starts
      // in a minute's last seconds makes that minute the bullish one; otherwise it is the next whole minute.
      const t0 = scheduler.now();
      const bucket = Math.ceil(t0 / 60_000) * 60_000;
      const startsLate = bucket - t0 <= 5_000;
      const close = startsLate ? bucket : bucket + 60_000;
      const wait = (engineMs: number) =>
        new Promise((r) => setTimeout(r, Math.max(0, engineMs - (scheduler.now() - t0)) / speed));
      if (!startsLate) await wait(bucket - t0 + 1_000);
      engine.onTick({ time: scheduler.now(), price: 24_000, volume: 0 });
      engine.onTick({ time: scheduler.now() + 1, price: 24_010, volume: 0 });
      await wait(close - t0 + 1_000);
      // The signal armed at the minute's close: the accounts are registered and live ones readied by now.
      await engine.idle();
      await options.ready?.();
      let signalSeen = 0;
      let cpuStart = process.cpuUsage();
      for (let i = 0; i < 20 && executedAt === 0; i += 1) {
        signalSeen = performance.now();
        cpuStart = process.cpuUsage();
        engine.onTick({ time: scheduler.now(), price: 24_030, volume: 0 });
        await new Promise((r) => setTimeout(r, 5));
      }
      await Promise.race([done, new Promise((r) => setTimeout(r, 60_000))]);
      const cpu = process.cpuUsage(cpuStart);
      await engine.idle();
      const rows = (await db.knex('trades').count({ n: '*' })) as Array<{ n: number }>;
      return {
        accounts,
        signalSeen,
        executedAt,
        executedAtEpoch,
        allOpenedAt,
        opened,
        tradesPersisted: Number(rows[0]?.n ?? 0),
        cpuMs: (cpu.user + cpu.system) / 1_000,
      };
    };
    return {
      runtime: engine,
      scheduler,
      db,
      enterAll,
      async close() {
        engine.stop();
        await removeDatabase();
      },
    };
  } catch (error) {
    await removeDatabase();
    throw error;
  }
}

/** One signal through the trading runtime to `accounts` accounts on a fresh SQLite database (see {@link openFanoutRig}). */
export async function runtimeFanoutOnce(options: RuntimeFanoutOptions): Promise<RuntimeFanoutRun> {
  const rig = await openFanoutRig(options);
  try {
    return await rig.enterAll();
  } finally {
    await rig.close();
  }
}

/** Runs the bench on a fresh SQLite database in a temporary DATA_DIR. */
export async function runRuntimeFanoutBench(): Promise<BenchResult> {
  const random = seededRandom(20_261_124);
  const sent: number[] = [];
  const run = await runtimeFanoutOnce({ accounts: ACCOUNTS, broker: () => slowBroker(sent, random) });
  const firstSend = Math.min(...sent);
  const lastSend = Math.max(...sent);
  return {
    name: `runtime fan-out: 1 signal → ${ACCOUNTS} accounts, SQLite store, brokers answering in ${MIN_DELAY_MS}–${MAX_DELAY_MS} ms`,
    figures: {
      accounts: ACCOUNTS,
      'entry orders sent': sent.length,
      'trades persisted': run.tradesPersisted,
      'signal → first order sent (ms)': Number((firstSend - run.executedAt).toFixed(1)),
      'signal → slowest account sent (ms)': Number((lastSend - run.executedAt).toFixed(1)),
      'signal → all fills persisted (ms)':
        run.allOpenedAt > 0 ? Number((run.allOpenedAt - run.executedAt).toFixed(1)) : 'not all',
      'executing tick → signal persisted (ms)': Number((run.executedAt - run.signalSeen).toFixed(1)),
    },
    notes: [
      'Each account has its own broker fake and its own rate limiter in the router (≤ 10 orders/s); one entry order per account, so the limiter never waits here.',
      'Sent = the broker call began, after the order row was written (persist before send). Fills persisted = the trade row, its order links and its audit row committed.',
      "Targets: every order sent within 100 ms of the signal and every fill persisted within 1 s of the brokers' answers (≤ 400 ms): ≤ 1,400 ms after the signal.",
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runRuntimeFanoutBench(), null, 2));
}
