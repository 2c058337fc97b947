// The trading service: the engine's trading runtime wired to the server. The runtime (engine/src/runtime) owns
// candles, strategies, the fan-out, orders, positions, exits and the daily loss lock; this module keeps what lasts
// across runs (the admin controls of controls.ts, the accounts directory of accounts.ts, the broker sessions, the bot
// board) and answers the TradingService port; lifecycle.ts builds and stops each run: the database store
// (runtimeStore.ts), each account's broker (brokerFactory.ts: paper, or the live adapter over the trader's session
// from brokerSessions.ts) and the socket publisher (eventPublisher.ts). See README.md in this folder for the flow,
// restart and the session modes.
import { paiseToRupees, rupeesToPaise } from '@optionpilot/engine/money';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { unrealisedPnl, currentWeeklyExpiry, type FeedSource } from '@optionpilot/engine';
import type { Config } from '../config';
import type { MarketSessionDto, StrategyInfoDto } from '../contract';
import { systemClock, type Clock } from '../clock';
import type { Logger } from '../logger';
import { listTradingCandidates, type Database } from '../db';
import type { BrokerRegistry } from '../brokers/registry';
import { createSecretBox, loadOrCreateKey } from '../crypto';
import type { HealthRegistry } from '../health/registry';
import { presentFeedHealth } from '../presenters/market';
import { presentMarketSession, presentSessionFacts } from '../presenters/session';
import type { Realtime } from '../realtime/publisher';
import { createAccountDirectory } from './accounts';
import { botStatusEvent, createBotBoard } from './botBoard';
import { createBrokerAccountEvents } from './brokerAccountEvents';
import { createBrokerSessions } from './brokerSessions';
import type { TradingService } from './api';
import { defaultControls, loadStrategySet, type StrategySet } from './controls';
import { launchEngine, stopEngine, type FeedMemory, type Running } from './lifecycle';
import { createMarketContext, marketSessionFacts, nextSessionOpen, type MarketContext } from './market';
import type { CandleInterval } from './marketView';
import { presentStrategyInfo } from './strategyInfo';
import { registerTradingHealth } from './health';
import type { TradingMetrics } from '../metrics/metrics';
import { createBrokerErrorCounter, createFeedDownWatcher } from '../notifications/watchers';

export type { TradingService } from './api';

export { CONTROLS_RELOAD_MS, RISK_FLUSH_MS } from './lifecycle';

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
  /** where signals, trades, candle closes and broker calls are counted for `/metrics` */
  metrics?: TradingMetrics;
  /** true while another node runs the engine (cluster/leader.ts): health reports a follower, not a stopped engine */
  following?: () => boolean;
}

/** Creates the trading service; nothing runs until `start()`. */
export function createTradingService(options: TradingServiceOptions): TradingService {
  const { db, config, publisher, logger } = options;
  const log = logger.child({ module: 'trading' });
  const realtime = options.realtime ?? asyncScheduler;
  const clock = options.clock ?? systemClock;
  const knex = db.knex;
  const { metrics } = options;

  let set: StrategySet = { controls: defaultControls(config.algoTag), strategies: [], defaultId: 'default' };
  let loaded = false;
  let live: Running | undefined;
  // The feed's health and the last tick: its market-clock time, and when it arrived on the real-time scheduler. Its
  // age is measured on that one clock (the engine clock of a simulation runs faster and may start anywhere).
  const memory: FeedMemory = {
    health: { status: 'down', lastTickAt: null },
    lastTickTime: null,
    lastTickArrivedAt: null,
  };
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
    await launchEngine(
      {
        db,
        config,
        publisher,
        log,
        clock,
        realtime,
        scheduler: options.scheduler,
        feed: options.feed,
        brokers: options.brokers,
        metrics,
        market,
        sessions,
        directory,
        board,
        accountEvents,
        brokerErrors,
        feedDown,
        memory,
        strategySet: () => set,
        broadcastIntervals,
        reloadControls,
        // A replay moves its clock on only once the engine's work on the last step is done.
        settle: () => live?.runtime.idle(),
      },
      (running) => {
        live = running;
      },
    );
  }

  async function stop(): Promise<void> {
    const running = live;
    if (running === undefined) return;
    live = undefined;
    await stopEngine(running, { knex, log });
  }

  // ---- health and socket snapshots ------------------------------------------------------------------------

  if (options.health !== undefined) {
    registerTradingHealth(options.health, () =>
      live === undefined
        ? options.following?.() === true
          ? 'follower'
          : null
        : {
            openPositions: live.runtime.positions().length,
            tradingEnabled: set.controls.params.tradingEnabled,
            feedKind: live.feed.kind,
            feed: memory.health,
            inSession: live.market.calendar.isInSession(engineNow()),
          },
    );
  }

  const feedKind = (): string => live?.feed.kind ?? config.feed.split(':')[0] ?? config.feed;
  publisher.onSync('market', ({ socketId }) => {
    const tick = live?.view.tick();
    if (tick) publisher.toSocket(socketId, 'market:tick', tick);
    publisher.toSocket(socketId, 'feed:health', presentFeedHealth(feedKind(), memory.health));
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
    feedHealth: () => presentFeedHealth(feedKind(), memory.health),
    lastTick() {
      return {
        time: memory.lastTickTime,
        ageMs:
          memory.lastTickArrivedAt === null ? null : Math.max(0, realtime.now() - memory.lastTickArrivedAt),
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
