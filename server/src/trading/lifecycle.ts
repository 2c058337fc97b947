// The trading service's start and stop (service.ts keeps the state between them). Starting builds one run of the
// engine: the configured feed on its clock, the market view, each account's broker, the store and the event
// publisher, the runtime itself with the trades restored from the database, the one subscription to the feed and
// the timers (risk flush, controls reload); then it starts them in the runtime's restart order. Stopping lets work
// in flight finish against the database and keeps the simulated market's last instant and price for the next start.
import { interval, Subscription, type SchedulerLike } from 'rxjs';
import { TradingRuntime, type FeedHealth, type FeedSource } from '@optionpilot/engine';
import type { Config } from '../config';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { findUserById, readEngineState, writeEngineState, type Database, type Db } from '../db';
import type { BrokerRegistry } from '../brokers/registry';
import type { InstrumentService } from '../brokers/instruments/service';
import type { TradingMetrics } from '../metrics/metrics';
import {
  recordRestartWithOpenPositions,
  type BrokerErrorCounter,
  type FeedDownWatcher,
} from '../notifications/watchers';
import { presentFeedHealth } from '../presenters/market';
import type { Realtime } from '../realtime/publisher';
import type { AccountDirectory } from './accounts';
import type { BotBoard } from './botBoard';
import { createAccountBrokers } from './brokerFactory';
import type { BrokerAccountEvents } from './brokerAccountEvents';
import { buildBrokerFeed, type SessionFeed } from './brokerFeed';
import type { BrokerSessions } from './brokerSessions';
import type { StrategySet } from './controls';
import { createEventPublisher } from './eventPublisher';
import { createConfiguredFeed } from './feed';
import { squareOffInstant, type MarketContext } from './market';
import { CANDLE_INTERVALS, createMarketView, type CandleInterval, type MarketView } from './marketView';
import { createPositionCheckRecorder } from './positionChecks';
import { loadRestored } from './restore';
import { createRuntimeStore } from './runtimeStore';

/** How often moved stops are written and open trades' mark-to-market P&L is pushed (real ms). */
export const RISK_FLUSH_MS = 1_000;
/** How often the controls are re-read even without `reloadControls()` (real ms): other processes may write them. */
export const CONTROLS_RELOAD_MS = 30_000;
/** Where the simulated market's last instant and price are kept across restarts. */
const SIM_STATE_KEY = 'sim.market';

/** One run of the engine, from `start()` to `stop()`. */
export interface Running {
  readonly runtime: TradingRuntime;
  readonly feed: FeedSource;
  /** FEED=kite | upstox: the session feed and its instrument master (refreshed daily) */
  readonly brokerFeed: { feed: SessionFeed; instruments: InstrumentService } | undefined;
  readonly scheduler: SchedulerLike;
  readonly market: MarketContext;
  readonly view: MarketView;
  readonly subscriptions: Subscription;
}

/** What the service remembers of the feed across runs (a stopped service still answers with the last of it). */
export interface FeedMemory {
  health: FeedHealth;
  /** the last tick's market-clock time */
  lastTickTime: number | null;
  /** when the last tick arrived, on the real-time scheduler (its age is measured on that one clock) */
  lastTickArrivedAt: number | null;
}

/** What a run is built from: the service's options and the parts the service keeps across runs. */
export interface EngineLaunch {
  db: Database;
  config: Config;
  publisher: Realtime;
  log: Logger;
  clock: Clock;
  /** real-time scheduler of throttles and periodic work */
  realtime: SchedulerLike;
  /** the engine clock handed in (tests); undefined = the configured feed's */
  scheduler: SchedulerLike | undefined;
  /** a feed handed in (tests); undefined = the configured feed */
  feed: FeedSource | undefined;
  brokers: BrokerRegistry | undefined;
  metrics: TradingMetrics | undefined;
  /** this run's session and expiry calendars */
  market: MarketContext;
  sessions: BrokerSessions;
  directory: AccountDirectory;
  board: BotBoard;
  accountEvents: BrokerAccountEvents;
  brokerErrors: BrokerErrorCounter;
  feedDown: FeedDownWatcher;
  /** where the feed's health and last tick are written as they arrive */
  memory: FeedMemory;
  /** the strategies and controls in force now (read at build, and by the square-off each time) */
  strategySet: () => StrategySet;
  broadcastIntervals: () => CandleInterval[];
  reloadControls: () => Promise<void>;
  /** the running runtime's `idle()`: a replay waits for it after each step of its clock */
  settle: () => Promise<unknown> | undefined;
}

/**
 * Builds a run and starts it. `built` receives the run before anything starts, so the service's accounts and
 * health see it while the restart recovers positions and resumes exits.
 */
export async function launchEngine(deps: EngineLaunch, built: (running: Running) => void): Promise<void> {
  const { db, config, publisher, log, clock, realtime, metrics, sessions, board, accountEvents, memory } =
    deps;
  const knex = db.knex;
  const context = deps.market;
  const seed = config.simSeed ?? Math.floor(Math.random() * 2 ** 31);
  let brokerFeed: Running['brokerFeed'];
  const resume =
    config.feed === 'sim'
      ? await readEngineState<{ time: number; price: number }>(knex, SIM_STATE_KEY)
      : undefined;
  const configured =
    deps.feed === undefined
      ? await createConfiguredFeed({
          feed: config.feed,
          seed,
          speed: config.simSpeed,
          market: context,
          ...(deps.scheduler === undefined ? {} : { scheduler: deps.scheduler }),
          ...(resume === undefined ? {} : { resume }),
          warn: (message) => log.warn(message),
          settle: deps.settle,
          brokerFeed: async (broker) => {
            brokerFeed = await buildBrokerFeed({
              broker,
              registry: deps.brokers,
              sessions,
              db,
              feedAccount: config.feedAccount ?? '',
              dataDir: config.dataDir,
              now: () => clock.now(),
              logger: log,
              engine: context.expiries,
            });
            return brokerFeed.feed;
          },
        })
      : { source: deps.feed, scheduler: deps.scheduler ?? realtime };
  const { source: feed, scheduler } = configured;
  if (deps.feed === undefined && config.feed === 'sim') {
    log.info({ seed, resumedAt: resume?.time }, 'simulated feed seed (SIM_SEED to repeat)');
  }

  const view = createMarketView({
    publisher,
    tradingDate: (t) => context.calendar.tradingDate(t),
    scheduler: realtime,
    tickBroadcastMs: config.tickBroadcastMs,
  });
  view.setBroadcastIntervals(deps.broadcastIntervals());
  await sessions.loadAll();
  const brokers = createAccountBrokers({
    sessions,
    ...(metrics === undefined ? {} : { metrics }),
    paper: { quote: (symbol) => runtime.quote(symbol), scheduler, tickSize: context.expiries.tickSize },
    now: () => clock.now(),
    warn: (accountId, message) => log.error({ accountId }, message),
    sessionEnded: (accountId, key) => {
      accountEvents
        .sessionEnded(Number(accountId), key)
        .catch((err: unknown) => log.error({ err, accountId }, 'marking an ended broker session failed'));
    },
    ipRefused: (accountId, key) => {
      accountEvents
        .ipRefused(Number(accountId), key)
        .catch((err: unknown) =>
          log.error({ err, accountId }, 'blocking an account whose broker refused our IP failed'),
        );
    },
    brokerError: (broker, error) => {
      deps.brokerErrors
        .count(broker, error.message, clock.now())
        .catch((err: unknown) => log.error({ err, broker }, 'recording a broker errors notice failed'));
    },
  });
  const store = createRuntimeStore({
    db,
    publisher,
    brokerOf: (accountId) => brokers.nameOf(accountId),
    strategyRowId: (id) => (Number.isInteger(Number(id)) ? Number(id) : null),
    onDailyLossLock: (userId) => {
      brokers
        .dailyLossLocked(String(userId))
        .catch((err: unknown) => log.warn({ err, userId }, "the broker's daily loss safety net failed"));
    },
  });
  const publishEvent = createEventPublisher({
    ownerOf: (userId) => findUserById(knex, userId),
    publisher,
    rows: store.rows,
    log,
    userChanged: board.userChanged,
    openPnlMoved: board.openPnlMoved,
    tradingSwitched: board.pushAllBotStatuses,
    positionsChecked: createPositionCheckRecorder({
      db,
      publisher,
      log,
      now: () => clock.now(),
      changed: accountEvents.pushBrokerConnection,
    }),
  });
  // The strategies and controls as they read once the feed is up (a reload may have come in meanwhile).
  const set = deps.strategySet();
  const runtime: TradingRuntime = new TradingRuntime({
    calendar: context.calendar,
    expiries: context.expiries,
    scheduler,
    quotes: feed,
    brokers: brokers.build,
    store,
    accounts: deps.directory,
    strategies: set.strategies,
    algoTag: set.controls.algoTag,
    tradingEnabled: set.controls.params.tradingEnabled,
    chartIntervals: CANDLE_INTERVALS,
    onCandle: (candle) => {
      view.onCandle(candle);
      metrics?.candle(candle, scheduler.now());
    },
    events:
      metrics === undefined
        ? publishEvent
        : (event) => {
            metrics.runtimeEvent(event);
            publishEvent(event);
          },
    squareOffAt: (time) => squareOffInstant(context, time, deps.strategySet().controls.squareOffTime),
    maxOrdersPerSecond: set.controls.maxOrdersPerSecond,
    // Brokers book fills on the wall clock, whatever speed the engine clock runs at.
    brokerClock: realtime,
    // A broker's feed quotes an option only once subscribed: an armed signal's contract is quoted ahead.
    quoteArmedStrikes: !feed.simulated,
    // …and a contract the executing tick moved to (one strike over) gets a moment for its first quote.
    entryQuoteWaitMs: feed.simulated ? 0 : 2_000,
    prepareArmedEntries: true,
  });
  const restored = await loadRestored(knex, {
    now: scheduler.now(),
    tradingDate: (t) => context.calendar.tradingDate(t),
    tradingEnabled: set.controls.params.tradingEnabled,
  });
  brokers.restored(new Map([...restored.trades.values()].map(({ trade }) => [trade.accountId, trade.paper])));
  runtime.restore(restored.snapshot, restored.trades);
  const restoredTrades = [...restored.trades.values()];
  recordRestartWithOpenPositions(knex, {
    openTrades: restoredTrades.length,
    liveTrades: restoredTrades.filter(({ trade }) => !trade.paper).length,
    startedAt: clock.now(),
  }).catch((err: unknown) => log.error({ err }, 'recording the restart notice failed'));

  const subscriptions = new Subscription();
  // One subscription to the ticks: the runtime builds every interval's candles once; the view shows them.
  subscriptions.add(
    feed.ticks$.subscribe((tick) => {
      memory.lastTickTime = tick.time;
      memory.lastTickArrivedAt = realtime.now();
      runtime.onTick(tick);
      view.onTick(tick);
    }),
  );
  subscriptions.add(feed.quotes$.subscribe((quote) => runtime.onQuote(quote)));
  subscriptions.add(
    feed.health$.subscribe((next) => {
      memory.health = next;
      publisher.toMarket('feed:health', presentFeedHealth(feed.kind, next));
    }),
  );
  subscriptions.add(
    interval(RISK_FLUSH_MS, realtime).subscribe(() => {
      runtime.flushRisk().catch((err: unknown) => log.error({ err }, 'risk flush failed'));
      if (feed.kind === 'sim') saveSimState(knex, view, log);
      // The feed's health is on the engine clock, so its silence is measured there too.
      deps.feedDown
        .check(memory.health, context.calendar.isInSession(scheduler.now()), scheduler.now())
        .catch((err: unknown) => log.error({ err }, 'recording a feed down notice failed'));
    }),
  );
  subscriptions.add(
    interval(CONTROLS_RELOAD_MS, realtime).subscribe(() => {
      deps.reloadControls().catch((err: unknown) => log.error({ err }, 'controls reload failed'));
    }),
  );
  built({ runtime, feed, brokerFeed, scheduler, market: context, view, subscriptions });
  runtime.start();
  feed.start();
  // Recover (stops found again) → resume exits in flight → check live accounts with their brokers: the
  // runtime's restart order (TradingRuntime.resumeAfterRestart).
  await runtime.resumeAfterRestart();
  log.info(
    {
      feed: feed.kind,
      session: context.mode,
      speed: config.simSpeed,
      strategies: deps.strategySet().strategies.length,
      openPositions: runtime.positions().length,
    },
    'trading engine started',
  );
}

/** Keeps the simulated market's last instant and price, where the next start resumes it. */
function saveSimState(knex: Db, view: MarketView, log: Logger): void {
  const tick = view.tick();
  if (tick === null) return;
  writeEngineState(knex, SIM_STATE_KEY, { time: Date.parse(tick.timestamp), price: tick.price }).catch(
    (err: unknown) => log.error({ err }, 'saving the simulated market failed'),
  );
}

/** Stops a run: work in flight finishes against the database first, and the simulated market is kept. */
export async function stopEngine(running: Running, deps: { knex: Db; log: Logger }): Promise<void> {
  const { knex, log } = deps;
  running.feed.stop();
  running.brokerFeed?.instruments.stop();
  running.subscriptions.unsubscribe();
  // Work already in flight (a fan-out, an exit) finishes against the database before it closes. A database
  // that is already gone must not stop the shutdown: what could not be written is logged.
  try {
    await running.runtime.idle();
    await running.runtime.flushRisk();
    const tick = running.view.tick();
    if (running.feed.kind === 'sim' && tick !== null) {
      await writeEngineState(knex, SIM_STATE_KEY, { time: Date.parse(tick.timestamp), price: tick.price });
    }
  } catch (err) {
    log.error({ err }, 'trading state could not be saved at shutdown');
  }
  running.runtime.stop();
  running.view.dispose();
  log.info('trading engine stopped');
}
