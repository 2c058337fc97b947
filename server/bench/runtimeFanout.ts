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

/** What {@link openFanoutRig} sets up: the runtime of 1,000 accounts on a fresh SQLite store, before any signal. */
export interface FanoutRig {
  readonly runtime: TradingRuntime;
  /** the engine clock (60× real time, so a minute's candle closes in a second) */
  readonly scheduler: ReturnType<typeof createScaledScheduler>;
  readonly db: ReturnType<typeof openDatabase>;
  /** when each broker call began (performance.now()) */
  readonly sent: number[];
  /**
   * Drives a bullish minute and a breakout tick: the signal executes and fans out to every account. Resolves when
   * every entry has filled and is persisted as a trade (or after 10 s), with the instants measured.
   */
  enterAll(): Promise<{ executedAt: number; signalSeen: number; allOpenedAt: number }>;
  /** stops the runtime and removes the database */
  close(): Promise<void>;
}

/**
 * The entry fan-out's set-up, shared by the benches that need 1,000 accounts trading through the runtime with
 * the real SQLite store: users with active subscriptions read by the real accounts directory, the server's
 * runtime store, and one broker per account from `broker` (each call's start is pushed to `sent`).
 */
export async function openFanoutRig(
  options: {
    readonly accounts?: number;
    readonly broker?: (sent: number[], random: () => number) => Broker;
    readonly events?: (event: RuntimeEvent) => void;
    /** engine ms before an unfilled order is given up (entries) or its exit sent again (default the runtime's) */
    readonly fillTimeoutMs?: number;
  } = {},
): Promise<FanoutRig> {
  const accounts = options.accounts ?? ACCOUNTS;
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-bench-'));
  const db = openDatabase({ dataDir: dir });
  await migrateLatest(db);
  const now = Date.now();
  for (let i = 0; i < accounts; i += 1) {
    const user = await insertUser(db.knex, {
      email: `bench${i}@example.com`,
      first_name: 'Bench',
      last_name: String(i),
      password_hash: 'x',
    });
    await updateUser(db.knex, user.id, {
      subscription_status: 'active',
      subscription_start_at: now - 86_400_000,
      subscription_end_at: now + 86_400_000,
    });
    await saveTradingSettings(db.knex, user.id, { bot_enabled: true, trade_quantity: 1 });
  }

  let x = 20_261_124;
  const random = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
  const sent: number[] = [];
  const market = createMarketContext({ mode: 'always', now });
  const params = { ...DEFAULT_STRATEGY_PARAMS, consecutiveCandles: 1, minMovement: 1, entryOffset: 1 };
  const strategies = [{ id: '1', name: 'bench', kind: 'consecutive_breakout' as const, params }];
  const set = {
    controls: { params, squareOffTime: '15:15', maxOrdersPerSecond: 10, algoTag: 'BENCH' },
    strategies,
    defaultId: '1',
  };
  // The engine clock runs 60× so a minute's candle closes in a second; broker delays stay real milliseconds.
  const scheduler = createScaledScheduler({ speed: 60, base: asyncScheduler });
  const store = createRuntimeStore({
    db,
    publisher: quietRealtime,
    brokerOf: () => 'bench',
    strategyRowId: () => null,
  });
  const directory = createAccountDirectory({
    db,
    config: { simSession: 'always' },
    clock: createManualClock(now),
    market: () => market,
    strategySet: () => set,
    // the runtime below: the directory asks for it only once trading runs
    runtime: () => engine,
  });
  let executedAt = 0;
  let opened = 0;
  let allOpenedAt = 0;
  let allOpened: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allOpened = resolve;
  });
  const broker = options.broker ?? slowBroker;
  const engine: TradingRuntime = new TradingRuntime({
    calendar: alwaysOpenCalendar,
    expiries: market.expiries,
    scheduler,
    quotes: { subscribe: () => undefined, unsubscribe: () => undefined },
    brokers: () => broker(sent, random),
    store,
    accounts: directory,
    strategies,
    algoTag: 'BENCH',
    // As the server runs it: accounts are registered (and live brokers readied) when the signal arms.
    prepareArmedEntries: true,
    ...(options.fillTimeoutMs === undefined ? {} : { fillTimeoutMs: options.fillTimeoutMs }),
    events: (event) => {
      if (event.kind === 'signal' && event.event.kind === 'executed') executedAt = performance.now();
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

  async function enterAll(): Promise<{ executedAt: number; signalSeen: number; allOpenedAt: number }> {
    // A bullish minute, then a tick through its high + 1 in the next minute executes a CALL.
    const t0 = scheduler.now();
    const bucket = Math.ceil(t0 / 60_000) * 60_000;
    const wait = (engineMs: number) =>
      new Promise((r) => setTimeout(r, Math.max(0, engineMs - (scheduler.now() - t0)) / 60));
    await wait(bucket - t0 + 1_000);
    engine.onTick({ time: scheduler.now(), price: 24_000, volume: 0 });
    engine.onTick({ time: scheduler.now() + 1, price: 24_010, volume: 0 });
    await wait(bucket - t0 + 61_000);
    let signalSeen = 0;
    for (let i = 0; i < 20 && executedAt === 0; i += 1) {
      signalSeen = performance.now();
      engine.onTick({ time: scheduler.now(), price: 24_030, volume: 0 });
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
    await engine.idle();
    return { executedAt, signalSeen, allOpenedAt };
  }

  return {
    runtime: engine,
    scheduler,
    db,
    sent,
    enterAll,
    async close() {
      engine.stop();
      await closeDatabase(db);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the bench on a fresh SQLite database in a temporary DATA_DIR. */
export async function runRuntimeFanoutBench(): Promise<BenchResult> {
  const rig = await openFanoutRig();
  try {
    const { executedAt, signalSeen, allOpenedAt } = await rig.enterAll();
    const { sent, db } = rig;
    const firstSend = Math.min(...sent);
    const lastSend = Math.max(...sent);
    const rows = (await db.knex('trades').count({ n: '*' })) as Array<{ n: number }>;
    return {
      name: `runtime fan-out: 1 signal → ${ACCOUNTS} accounts, SQLite store, brokers answering in ${MIN_DELAY_MS}–${MAX_DELAY_MS} ms`,
      figures: {
        accounts: ACCOUNTS,
        'entry orders sent': sent.length,
        'trades persisted': Number(rows[0]?.n ?? 0),
        'signal → first order sent (ms)': Number((firstSend - executedAt).toFixed(1)),
        'signal → slowest account sent (ms)': Number((lastSend - executedAt).toFixed(1)),
        'signal → all fills persisted (ms)':
          allOpenedAt > 0 ? Number((allOpenedAt - executedAt).toFixed(1)) : 'not all',
        'executing tick → signal persisted (ms)': Number((executedAt - signalSeen).toFixed(1)),
      },
      notes: [
        'Each account has its own broker fake and its own rate limiter in the router (≤ 10 orders/s); one entry order per account, so the limiter never waits here.',
        'Sent = the broker call began, after the order row was written (persist before send). Fills persisted = the trade row, its order links and its audit row committed.',
        "Targets: every order sent within 100 ms of the signal and every fill persisted within 1 s of the brokers' answers (≤ 400 ms): ≤ 1,400 ms after the signal.",
      ],
    };
  } finally {
    await rig.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runRuntimeFanoutBench(), null, 2));
}
