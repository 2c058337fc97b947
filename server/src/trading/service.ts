// The trading service: the engine's trading runtime wired to the server. The runtime (engine/src/runtime) owns
// candles, strategies, the fan-out, orders, positions, exits and the daily loss lock; this module only builds it
// from the configuration and gives it its ports: the database store (runtimeStore.ts), the accounts directory
// (accounts.ts), each account's broker (brokerFactory.ts: paper, or the live adapter over the trader's session from
// brokerSessions.ts), the socket publisher (eventPublisher.ts) and the admin controls
// (controls.ts). See README.md in this folder for the flow, restart and the session modes.
import { paiseToRupees, rupeesToPaise } from '@optionpilot/engine/money';
import { asyncScheduler, interval, Subscription, type SchedulerLike } from 'rxjs';
import {
  TradingRuntime,
  unrealisedPnl,
  type FeedHealth,
  currentWeeklyExpiry,
  type FeedSource,
} from '@optionpilot/engine';
import type { Config } from '../config';
import type { MarketSessionDto, StrategyInfoDto } from '../contract';
import { systemClock, type Clock } from '../clock';
import type { Logger } from '../logger';
import { findUserById, listTradingCandidates, readEngineState, writeEngineState, type Database } from '../db';
import type { BrokerRegistry } from '../brokers/registry';
import { createSecretBox, loadOrCreateKey } from '../crypto';
import type { HealthRegistry } from '../health/registry';
import { presentFeedHealth } from '../presenters/market';
import { presentMarketSession, presentSessionFacts } from '../presenters/session';
import type { Realtime } from '../realtime/publisher';
import { createAccountDirectory } from './accounts';
import { botStatusEvent, createBotBoard } from './botBoard';
import { createAccountBrokers } from './brokerFactory';
import { createBrokerAccountEvents } from './brokerAccountEvents';
import { createBrokerSessions } from './brokerSessions';
import type { TradingService } from './api';
import { defaultControls, loadStrategySet, type StrategySet } from './controls';
import { createEventPublisher } from './eventPublisher';
import { createPositionCheckRecorder } from './positionChecks';
import type { InstrumentService } from '../brokers/instruments/service';
import { buildBrokerFeed, type SessionFeed } from './brokerFeed';
import { createConfiguredFeed } from './feed';
import {
  createMarketContext,
  marketSessionFacts,
  nextSessionOpen,
  squareOffInstant,
  type MarketContext,
} from './market';
import { CANDLE_INTERVALS, createMarketView, type CandleInterval, type MarketView } from './marketView';
import { loadRestored } from './restore';
import { createRuntimeStore } from './runtimeStore';
import { presentStrategyInfo } from './strategyInfo';
import { registerTradingHealth } from './health';
import {
  createBrokerErrorCounter,
  createFeedDownWatcher,
  recordRestartWithOpenPositions,
} from '../notifications/watchers';

export type { TradingService } from './api';

/** How often moved stops are written and open trades' mark-to-market P&L is pushed (real ms). */
export const RISK_FLUSH_MS = 1_000;
/** How often the controls are re-read even without `reloadControls()` (real ms): other processes may write them. */
export const CONTROLS_RELOAD_MS = 30_000;
/** Where the simulated market's last instant and price are kept across restarts. */
const SIM_STATE_KEY = 'sim.market';

export interface TradingServiceOptions {
  db: Database;
  config: Config;
  publisher: Realtime;
  logger: Logger;
  /**
   * the engine clock; default a scaled scheduler running SIM_SPEED× real time. With FEED=replay: the real clock
   * that paces the replay (the replay drives an engine clock of its own).
   */
  scheduler?: SchedulerLike;
  /** replaces the configured feed (tests drive a scripted feed on a virtual clock) */
  feed?: FeedSource;
  /** where `engine` and `market_feed` report their health */
  health?: HealthRegistry;
  /** real-time scheduler of throttles and periodic work (default asyncScheduler) */
  realtime?: SchedulerLike;
  /** wall clock for subscription validity (default the system clock) */
  clock?: Clock;
  /**
   * the broker modules live accounts trade through — the routes' registry, so Kite's postbacks reach the same
   * adapters; without it every account trades on paper
   */
  brokers?: BrokerRegistry;
}

interface Running {
  readonly runtime: TradingRuntime;
  readonly feed: FeedSource;
  /** FEED=kite | upstox: the session feed and its instrument master (refreshed daily) */
  readonly brokerFeed: { feed: SessionFeed; instruments: InstrumentService } | undefined;
  readonly scheduler: SchedulerLike;
  readonly market: MarketContext;
  readonly view: MarketView;
  readonly subscriptions: Subscription;
}

/** Creates the trading service; nothing runs until `start()`. */
export function createTradingService(options: TradingServiceOptions): TradingService {
  const { db, config, publisher, logger } = options;
  const log = logger.child({ module: 'trading' });
  const realtime = options.realtime ?? asyncScheduler;
  const clock = options.clock ?? systemClock;
  const knex = db.knex;

  let set: StrategySet = { controls: defaultControls(config.algoTag), strategies: [], defaultId: 'default' };
  let loaded = false;
  let live: Running | undefined;
  let health: FeedHealth = { status: 'down', lastTickAt: null };
  // The last tick: its market-clock time, and when it arrived on the real-time scheduler. Its age is measured on
  // that one clock (the engine clock of a simulation runs faster and may start anywhere).
  let lastTickTime: number | null = null;
  let lastTickArrivedAt: number | null = null;
  // The market context outlives a stop: bot status and lot size still answer from it.
  let market: MarketContext | undefined;
  // Before the first start, the session facts and the lot size answer from a context of their own.
  let standbyMarket: MarketContext | undefined;
  const marketContext = (): MarketContext =>
    market ?? (standbyMarket ??= createMarketContext({ mode: config.simSession, now: clock.now() }));

  const engineNow = (): number => (live?.scheduler ?? realtime).now();
  // Admin notices the trading service observes (notifications/watchers.ts); recording them never blocks trading.
  const brokerErrors = createBrokerErrorCounter({ db: knex });
  const feedDown = createFeedDownWatcher({ db: knex, feedKind: () => feedKind() });
  const sessions = createBrokerSessions({
    db,
    box: createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey)),
    ...(options.brokers === undefined ? {} : { registry: options.brokers }),
    warn: (userId, message) => log.warn({ userId }, message),
  });
  const directory = createAccountDirectory({
    liveSession: (userId) => sessions.get(userId, clock.now()),
    // Real orders only on the exchange's own prices: a simulated or replayed market trades everyone on paper.
    liveMarket: () => live !== undefined && !live.feed.simulated,
    db,
    config,
    clock,
    market: () => market,
    strategySet: () => set,
    runtime: () => live?.runtime,
  });

  // ---- controls -------------------------------------------------------------------------------------------

  /**
   * Applies the admin controls and strategies to the running runtime (a pause emits `halted`: bots are told), then,
   * when anything changed, sends every trader online the strategy they follow as it now reads (`strategy:info`).
   * Callers write the controls first, so the push always follows the commit.
   */
  async function reloadControls(): Promise<void> {
    const before = loaded ? JSON.stringify(set) : undefined;
    set = await loadStrategySet(knex, set.controls, log);
    loaded = true;
    if (live !== undefined) {
      live.runtime.setStrategies(set.strategies);
      live.view.setBroadcastIntervals(broadcastIntervals());
      live.runtime.setTradingEnabled(set.controls.params.tradingEnabled);
    }
    if (before !== undefined && before !== JSON.stringify(set)) {
      // The change is applied whatever happens to the push; a trader who misses it reads it on the next resync.
      await pushStrategyInfo().catch((err: unknown) => log.error({ err }, 'pushing strategy:info failed'));
    }
  }

  /** The session facts in force now: the calendar's times with the admins' square-off, on the engine's date. */
  function currentSessionFacts() {
    return marketSessionFacts(marketContext(), set.controls.squareOffTime, engineNow());
  }

  /** The strategy info of each user in `userIds`, one presentation per strategy followed. */
  async function strategyInfos(userIds: readonly number[]): Promise<Map<number, StrategyInfoDto>> {
    const candidates = userIds.length === 0 ? [] : await listTradingCandidates(knex, userIds);
    const followed = new Map(candidates.map((c) => [c.user.id, directory.strategyOf(c)]));
    const options = { mode: config.simSession, session: currentSessionFacts() };
    const byStrategy = new Map<string | undefined, StrategyInfoDto>();
    const out = new Map<number, StrategyInfoDto>();
    for (const userId of userIds) {
      const strategyId = followed.get(userId);
      let info = byStrategy.get(strategyId);
      if (info === undefined) {
        info = presentStrategyInfo(set, strategyId, options);
        byStrategy.set(strategyId, info);
      }
      out.set(userId, info);
    }
    return out;
  }

  /** Sends `strategy:info` to `userIds` (default: every user with a socket open). */
  async function pushStrategyInfo(userIds?: readonly number[]): Promise<void> {
    const users = userIds ?? (await publisher.connectedUserIds());
    for (const [userId, info] of await strategyInfos(users)) publisher.toUser(userId, 'strategy:info', info);
  }

  function broadcastIntervals(): CandleInterval[] {
    const { interval: strategyInterval } = set.controls.params;
    return strategyInterval === 1 ? [1] : [1, strategyInterval];
  }

  // ---- bot status and stats (botBoard.ts) -----------------------------------------------------------------

  const board = createBotBoard({
    knex,
    directory,
    publisher,
    controls: async () => {
      if (!loaded) await reloadControls();
      return set.controls;
    },
    running: () => live !== undefined,
    engineNow,
    unrealisedPaise: (userId) => rupeesToPaise(live?.runtime.unrealisedPnl(String(userId)) ?? 0),
    openTradeCount: (userId) => live?.runtime.positions(String(userId)).length ?? 0,
  });
  const { botStatus, pushBotStatus, statsFor } = board;
  const accountEvents = createBrokerAccountEvents({
    db,
    config,
    clock,
    publisher,
    log,
    sessions,
    sessionChanged: async (userId) => {
      await live?.runtime.sessionChanged(String(userId));
    },
    refreshFeed: async () => {
      await live?.brokerFeed?.feed.refresh();
    },
    pushBotStatus,
  });

  // ---- lifecycle ------------------------------------------------------------------------------------------

  async function start(): Promise<void> {
    if (live !== undefined) return;
    await reloadControls();
    market = createMarketContext({ mode: config.simSession, now: clock.now() });
    for (const warning of market.warnings) log.warn(warning);
    const context = market;
    const seed = config.simSeed ?? Math.floor(Math.random() * 2 ** 31);
    let brokerFeed: Running['brokerFeed'];
    const resume =
      config.feed === 'sim'
        ? await readEngineState<{ time: number; price: number }>(knex, SIM_STATE_KEY)
        : undefined;
    const configured =
      options.feed === undefined
        ? await createConfiguredFeed({
            feed: config.feed,
            seed,
            speed: config.simSpeed,
            market: context,
            ...(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
            ...(resume === undefined ? {} : { resume }),
            warn: (message) => log.warn(message),
            // A replay moves its clock on only once the engine's work on the last step is done.
            settle: () => live?.runtime.idle(),
            brokerFeed: async (broker) => {
              brokerFeed = await buildBrokerFeed({
                broker,
                registry: options.brokers,
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
        : { source: options.feed, scheduler: options.scheduler ?? realtime };
    const { source: feed, scheduler } = configured;
    if (options.feed === undefined && config.feed === 'sim') {
      log.info({ seed, resumedAt: resume?.time }, 'simulated feed seed (SIM_SEED to repeat)');
    }

    const view = createMarketView({
      publisher,
      tradingDate: (t) => context.calendar.tradingDate(t),
      scheduler: realtime,
      tickBroadcastMs: config.tickBroadcastMs,
    });
    view.setBroadcastIntervals(broadcastIntervals());
    await sessions.loadAll();
    const brokers = createAccountBrokers({
      sessions,
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
        brokerErrors
          .count(broker, error.message, clock.now())
          .catch((err: unknown) => log.error({ err, broker }, 'recording a broker errors notice failed'));
      },
    });
    const store = createRuntimeStore({
      db,
      publisher,
      brokerOf: (accountId) => brokers.nameOf(accountId),
      strategyRowId: (id) => (Number.isInteger(Number(id)) ? Number(id) : null),
    });
    const events = createEventPublisher({
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
    const runtime: TradingRuntime = new TradingRuntime({
      calendar: context.calendar,
      expiries: context.expiries,
      scheduler,
      quotes: feed,
      brokers: brokers.build,
      store,
      accounts: directory,
      strategies: set.strategies,
      algoTag: set.controls.algoTag,
      tradingEnabled: set.controls.params.tradingEnabled,
      chartIntervals: CANDLE_INTERVALS,
      onCandle: (candle) => view.onCandle(candle),
      events,
      squareOffAt: (time) => squareOffInstant(context, time, set.controls.squareOffTime),
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
    brokers.restored(
      new Map([...restored.trades.values()].map(({ trade }) => [trade.accountId, trade.paper])),
    );
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
        lastTickTime = tick.time;
        lastTickArrivedAt = realtime.now();
        runtime.onTick(tick);
        view.onTick(tick);
      }),
    );
    subscriptions.add(feed.quotes$.subscribe((quote) => runtime.onQuote(quote)));
    subscriptions.add(
      feed.health$.subscribe((next) => {
        health = next;
        publisher.toMarket('feed:health', presentFeedHealth(feed.kind, next));
      }),
    );
    subscriptions.add(
      interval(RISK_FLUSH_MS, realtime).subscribe(() => {
        runtime.flushRisk().catch((err: unknown) => log.error({ err }, 'risk flush failed'));
        if (feed.kind === 'sim') saveSimState(view);
        // The feed's health is on the engine clock, so its silence is measured there too.
        feedDown
          .check(health, context.calendar.isInSession(scheduler.now()), scheduler.now())
          .catch((err: unknown) => log.error({ err }, 'recording a feed down notice failed'));
      }),
    );
    subscriptions.add(
      interval(CONTROLS_RELOAD_MS, realtime).subscribe(() => {
        reloadControls().catch((err: unknown) => log.error({ err }, 'controls reload failed'));
      }),
    );
    live = { runtime, feed, brokerFeed, scheduler, market: context, view, subscriptions };
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
        strategies: set.strategies.length,
        openPositions: runtime.positions().length,
      },
      'trading engine started',
    );
  }

  /** The accounts of restored trades that were live (paper positions have no broker to agree with). */
  function saveSimState(view: MarketView): void {
    const tick = view.tick();
    if (tick === null) return;
    writeEngineState(knex, SIM_STATE_KEY, { time: Date.parse(tick.timestamp), price: tick.price }).catch(
      (err: unknown) => log.error({ err }, 'saving the simulated market failed'),
    );
  }

  async function stop(): Promise<void> {
    const running = live;
    if (running === undefined) return;
    live = undefined;
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

  // ---- health and socket snapshots ------------------------------------------------------------------------

  if (options.health !== undefined) {
    registerTradingHealth(options.health, () =>
      live === undefined
        ? null
        : {
            openPositions: live.runtime.positions().length,
            tradingEnabled: set.controls.params.tradingEnabled,
            feedKind: live.feed.kind,
            feed: health,
            inSession: live.market.calendar.isInSession(engineNow()),
          },
    );
  }

  const feedKind = (): string => live?.feed.kind ?? config.feed.split(':')[0] ?? config.feed;
  publisher.onSync('market', ({ socketId }) => {
    const tick = live?.view.tick();
    if (tick) publisher.toSocket(socketId, 'market:tick', tick);
    publisher.toSocket(socketId, 'feed:health', presentFeedHealth(feedKind(), health));
  });
  publisher.onSync('bot', async ({ socketId, userId }) => {
    publisher.toSocket(socketId, 'bot:status', botStatusEvent(await botStatus(userId)));
  });
  publisher.onSync('stats', async ({ socketId, userId }) => {
    publisher.toSocket(socketId, 'user:stats', await statsFor(userId));
  });

  return {
    start,
    stop,
    reloadControls,
    botStatus,
    async onUserChanged(userId) {
      const before = sessions.get(userId, clock.now())?.key;
      await sessions.refresh(userId);
      const after = sessions.get(userId, clock.now())?.key;
      // A new broker session (a reconnect): open live positions move to it and are reconciled with the broker.
      if (after !== undefined && after !== before && live !== undefined) {
        const { runtime } = live;
        runtime.track(
          `reconnect of account ${userId}`,
          runtime.sessionChanged(String(userId)),
          String(userId),
        );
      }
      // The market-data account may have just logged in (or out): the broker feed looks again at once.
      await live?.brokerFeed?.feed.refresh();
      const [candidate] = await listTradingCandidates(knex, [userId]);
      if (candidate !== undefined && live !== undefined) {
        live.runtime.configureAccount(String(userId), paiseToRupees(candidate.settings.max_daily_loss_paise));
      }
      await pushBotStatus(userId);
      // The trader may have chosen another strategy: the panel shows the one now followed.
      await pushStrategyInfo([userId]);
    },
    statsFor,
    unrealisedPnlPaise: board.unrealisedPaise,
    markPnl(tradeId) {
      const position = live?.runtime.positions().find((p) => p.positionId === String(tradeId));
      if (position === undefined || live?.runtime.quote(position.symbol) === undefined) return null;
      return unrealisedPnl(position.risk, position.risk.lastPrice, position.quantity);
    },
    lotSize(now) {
      const { expiries } = marketContext();
      return expiries.lotSize(currentWeeklyExpiry(expiries, now));
    },
    marketTick: () => live?.view.tick() ?? null,
    candles: (candleInterval, limit) => live?.view.candles(candleInterval, limit) ?? [],
    feedHealth: () => presentFeedHealth(feedKind(), health),
    lastTick() {
      return {
        time: lastTickTime,
        ageMs: lastTickArrivedAt === null ? null : Math.max(0, realtime.now() - lastTickArrivedAt),
      };
    },
    async strategyInfo(userId) {
      if (!loaded) await reloadControls();
      if (userId === undefined) {
        return presentStrategyInfo(set, undefined, {
          mode: config.simSession,
          session: currentSessionFacts(),
        });
      }
      const info = (await strategyInfos([userId])).get(userId);
      if (info === undefined) throw new Error(`no strategy info for user ${userId}`);
      return info;
    },
    marketNow: engineNow,
    async marketSession(): Promise<MarketSessionDto> {
      if (!loaded) await reloadControls();
      const context = marketContext();
      const at = engineNow();
      const kind = feedKind();
      const simulated = kind === 'sim' || kind === 'replay';
      return presentMarketSession({
        facts: presentSessionFacts(config.simSession, currentSessionFacts()),
        marketClock: {
          kind: kind === 'sim' ? 'simulated' : kind === 'replay' ? 'replay' : 'real',
          // A scheduler handed in by tests (or a broker feed) runs at real speed.
          speed: simulated && options.scheduler === undefined ? config.simSpeed : 1,
        },
        at,
        inSession: context.calendar.isInSession(at),
        inEntryWindow: context.calendar.isInEntryWindow(at),
        nextOpenAt: context.mode === 'always' ? null : nextSessionOpen(context, at),
      });
    },
    openPositions: () => live?.runtime.positions() ?? [],
    async flattenAll() {
      return live?.runtime.flattenAll() ?? 0;
    },
    async idle() {
      await live?.runtime.idle();
    },
  };
}
