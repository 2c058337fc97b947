// The engine inside the server: the configured feed drives candles and the consecutive-candle breakout; each
// executed signal is routed, per eligible user, through that user's paper broker; the engine's risk manager exits
// positions on the option quotes. Every signal, order, trade and audit event is written to the database first and
// pushed on the socket rooms only after the write has committed (STYLE §7). The tick path itself never touches the
// database. See README.md in this folder for the flow, what is persisted when, restart and the session modes.
import { asyncScheduler, interval, Subject, Subscription, type SchedulerLike } from 'rxjs';
import {
  DEFAULT_STRATEGY_PARAMS,
  OrderRouter,
  PaperBroker,
  RiskManager,
  STRATEGY_NAME,
  breachesDailyLoss,
  breakoutSignals,
  createPositionRisk,
  createScaledScheduler,
  describeStrategy,
  formatHhMm,
  formatOptionSymbol,
  isTerminal,
  istMidnightOf,
  parseHhMm,
  parseStrategyParams,
  roundTripCharges,
  selectStrike,
  toCandles,
  toIstParts,
  type AccountRiskState,
  type ExitInstruction,
  type ExitReason,
  type FeedHealth,
  type FeedSource,
  type Order,
  type PositionRiskConfig,
  type PositionRiskState,
  type Quote,
  type RiskPosition,
  type Signal,
  type StrategyEvent,
  type StrategyParams,
} from '@optionpilot/engine';
import type {
  BotStatusDetailDto,
  CandleDto,
  FeedHealthDto,
  MarketTickDto,
  StrategyInfoDto,
  UserStatsDto,
} from '../contract';
import type { Config } from '../config';
import { systemClock, type Clock } from '../clock';
import type { Logger } from '../logger';
import {
  adminControlValues,
  appendLog,
  closeTrade,
  findSignal,
  findUserById,
  getTradingSettings,
  getUserSettings,
  insertSignal,
  insertTrade,
  listBotEnabledSettings,
  listOpenTrades,
  listOrders,
  markSignalExecuted,
  markSignalSkipped,
  tradeStats,
  userTradeTotals,
  updateOrderByClientId,
  updateTrade,
  type Database,
  type LogRow,
  type SignalRow,
  type TradeRow,
  type TradingSettingsRow,
  type UserRow,
  type UserSettingsRow,
} from '../db';
import type { HealthRegistry } from '../health/registry';
import { presentAdminTrade } from '../presenters/adminTrade';
import { presentLog } from '../presenters/log';
import { presentFeedHealth } from '../presenters/market';
import { presentSignal } from '../presenters/signal';
import { presentStats } from '../presenters/stats';
import { presentTrade } from '../presenters/trade';
import type { Realtime } from '../realtime/publisher';
import { evaluateEligibility, type Eligibility, type TradeSide } from './eligibility';
import { createConfiguredFeed } from './feed';
import { createMarketContext, currentWeeklyExpiry, squareOffInstant, type MarketContext } from './market';
import { CANDLE_INTERVALS, createMarketView, type CandleInterval, type MarketView } from './marketView';
import { createDbOrderStore, toPaise } from './orderStore';

/** How often changed stops / high-water marks of open positions are written (real ms): a throttle, not per quote. */
export const RISK_FLUSH_MS = 1_000;
/** How often admin controls are re-read even without `reloadControls()` (real ms). */
export const CONTROLS_RELOAD_MS = 30_000;
/** How long an entry or exit order may stay unresolved before the service stops waiting for it (real ms). */
const ORDER_SETTLE_TIMEOUT_MS = 30_000;
/** Wait before re-sending an exit whose order did not fill (real ms). */
const EXIT_RETRY_MS = 1_000;

export interface TradingServiceOptions {
  db: Database;
  config: Config;
  publisher: Realtime;
  logger: Logger;
  /** the engine clock; default a scaled scheduler running SIM_SPEED× real time from now */
  scheduler?: SchedulerLike;
  /** replaces the configured feed (tests drive a scripted feed on a virtual clock) */
  feed?: FeedSource;
  /** where `engine` and `feed` report their health */
  health?: HealthRegistry;
  /** real-time scheduler of throttles and periodic work (default asyncScheduler) */
  realtime?: SchedulerLike;
  /** wall clock for subscription validity (default the system clock) */
  clock?: Clock;
}

export interface TradingService {
  start(): Promise<void>;
  /** stops the feed and timers, waits for work in flight and writes the latest risk state of open positions */
  stop(): Promise<void>;
  /** re-reads admin_controls (the admin routes call it after a change; also done every 30 s) */
  reloadControls(): Promise<void>;
  /** whether the bot would trade for this user now, and why not */
  botStatus(userId: number): Promise<BotStatusDetailDto>;
  /** a user's settings, bot switch or subscription changed: re-evaluate and push `bot:status` */
  onUserChanged(userId: number): Promise<void>;
  /** today's P&L (closed net + open unrealised), totals and win rate of closed trades */
  statsFor(userId: number): Promise<UserStatsDto>;
  /** unrealised P&L of the user's open positions at the last quotes, in paise */
  unrealisedPnlPaise(userId: number): number;
  /** units per lot of the contract a new position would buy at `now` (the current weekly expiry's) */
  lotSize(now: number): number;
  marketTick(): MarketTickDto | null;
  candles(interval: CandleInterval, limit: number): CandleDto[];
  feedHealth(): FeedHealthDto;
  strategyInfo(): Promise<StrategyInfoDto>;
  /** positions under risk management (their stops and high-water marks) */
  openPositions(): readonly RiskPosition[];
  /** resolves when queued signal, entry and exit work has finished */
  idle(): Promise<void>;
}

interface Controls {
  params: StrategyParams;
  squareOffTime: string;
  maxOrdersPerSecond: number;
  algoTag: string;
}

interface Candidate {
  user: UserRow;
  settings: UserSettingsRow;
  trading: TradingSettingsRow;
}

interface OpenPosition {
  trade: TradeRow;
  user: UserRow | undefined;
  /** exit orders sent so far (intent keys `<tradeId>:exit:<n>`) */
  exitSeq: number;
  exiting: boolean;
  /** stop|high|target last written, to skip writes when only the last price moved */
  persistedKey: string;
}

const DEFAULT_SQUARE_OFF = '15:15';
const NO_ACCOUNT_LOSS_LIMIT = 0;

function riskKey(risk: PositionRiskState): string {
  return `${risk.stopPrice}|${risk.highWater}|${risk.targetPrice}`;
}

function exitReasonColumn(reason: ExitReason): string {
  return reason.toLowerCase();
}

function rupees(value: number): string {
  return `₹${value.toFixed(2)}`;
}

/** Creates the trading service; nothing runs until `start()`. */
export function createTradingService(options: TradingServiceOptions): TradingService {
  const { db, config, publisher, logger } = options;
  const log = logger.child({ module: 'trading' });
  const realtime = options.realtime ?? asyncScheduler;
  const clock = options.clock ?? systemClock;
  const knex = db.knex;

  let controls: Controls = {
    params: DEFAULT_STRATEGY_PARAMS,
    squareOffTime: DEFAULT_SQUARE_OFF,
    maxOrdersPerSecond: 10,
    algoTag: config.algoTag,
  };
  let controlsLoaded = false;
  const params$ = new Subject<StrategyParams>();

  let running = false;
  let scheduler: SchedulerLike | undefined;
  let market: MarketContext | undefined;
  let feed: FeedSource | undefined;
  let router: OrderRouter | undefined;
  let risk: RiskManager | undefined;
  let view: MarketView | undefined;
  let health: FeedHealth = { status: 'down', lastTickAt: null };
  let subscriptions = new Subscription();

  const quotes = new Map<string, Quote>();
  const quoteRefs = new Map<string, number>();
  const positions = new Map<number, OpenPosition>();
  const bySymbol = new Map<string, Set<number>>();
  const dirty = new Set<number>();
  const signalIds = new Map<string, number>();
  const accounts = new Set<string>();
  const inflight = new Set<Promise<unknown>>();
  let chain: Promise<void> = Promise.resolve();

  const engineNow = (): number => (scheduler ?? realtime).now();

  // ---- background work bookkeeping --------------------------------------------------------------------------

  function track<T>(task: Promise<T>): Promise<T> {
    inflight.add(task);
    const done = () => inflight.delete(task);
    task.then(done, done);
    return task;
  }

  /** Runs signal work strictly in event order (an execution needs its armed row's id). */
  function enqueue(what: string, task: () => Promise<void>): void {
    chain = chain.then(task).catch((err: unknown) => log.error({ err }, `${what} failed`));
    void track(chain);
  }

  function background(what: string, task: Promise<unknown>): void {
    void track(task.catch((err: unknown) => log.error({ err }, `${what} failed`)));
  }

  // ---- admin controls ---------------------------------------------------------------------------------------

  async function loadControls(): Promise<void> {
    const values = await adminControlValues(knex);
    let params = controls.params;
    try {
      params = parseStrategyParams(values);
    } catch (err) {
      log.warn({ err }, 'invalid strategy parameters in admin_controls; keeping the previous ones');
    }
    let squareOffTime = controls.squareOffTime;
    const rawSquareOff = values['squareOffTime']?.trim();
    if (rawSquareOff !== undefined && rawSquareOff !== '') {
      try {
        parseHhMm(rawSquareOff);
        squareOffTime = rawSquareOff;
      } catch {
        log.warn(
          { squareOffTime: rawSquareOff },
          'invalid squareOffTime in admin_controls; keeping the previous one',
        );
      }
    }
    const perSecond = Number(values['maxOrdersPerSecond']);
    const maxOrdersPerSecond =
      Number.isInteger(perSecond) && perSecond >= 1 ? Math.min(perSecond, 10) : controls.maxOrdersPerSecond;
    const tag = values['algoTag']?.trim();
    const algoTag = tag && /^[A-Za-z0-9]{1,20}$/.test(tag) ? tag : controls.algoTag;

    const previous = controls;
    controls = { params, squareOffTime, maxOrdersPerSecond, algoTag };
    controlsLoaded = true;
    if (JSON.stringify(previous.params) !== JSON.stringify(params)) params$.next(params);
    view?.setBroadcastIntervals(params.interval === 1 ? [1] : [1, params.interval]);
    if (risk !== undefined) {
      if (params.tradingEnabled) risk.resume();
      else risk.halt();
    }
    if (running && previous.params.tradingEnabled !== params.tradingEnabled) {
      background('bot status push', pushAllBotStatuses());
    }
  }

  // ---- eligibility ------------------------------------------------------------------------------------------

  async function dailyLossLocked(userId: number, settings: UserSettingsRow, now: number): Promise<boolean> {
    const account = risk?.account(String(userId), now);
    if (account?.locked) return true;
    // The database is the truth across restarts: today's realised losses count even if the engine restarted.
    const today = await tradeStats(knex, { userId, since: istMidnightOf(now) });
    return settings.max_daily_loss_paise > 0 && today.pnlPaise <= -settings.max_daily_loss_paise;
  }

  async function eligibility(candidate: Candidate, now: number, side?: TradeSide): Promise<Eligibility> {
    const accountId = String(candidate.user.id);
    return evaluateEligibility({
      wallNow: clock.now(),
      user: candidate.user,
      settings: candidate.settings,
      trading: candidate.trading,
      global: controls.params,
      brokerSessionValid: false,
      marketOpen: market?.calendar.isInSession(now) ?? false,
      enforceTradingHours: config.simSession === 'market',
      istTime: formatHhMm(toIstParts(now).minuteOfDay),
      dailyLossLocked: await dailyLossLocked(candidate.user.id, candidate.settings, now),
      positionOpen: (risk?.openPositions(accountId).length ?? 0) > 0,
      ...(side === undefined ? {} : { side }),
    });
  }

  async function loadCandidate(userId: number): Promise<Candidate | undefined> {
    const user = await findUserById(knex, userId);
    if (user === undefined) return undefined;
    return {
      user,
      settings: await getUserSettings(knex, userId),
      trading: await getTradingSettings(knex, userId),
    };
  }

  async function botStatus(userId: number): Promise<BotStatusDetailDto> {
    // Read the controls fresh: a status must reflect an admin's pause at once, whoever changed the row.
    await loadControls();
    const candidate = await loadCandidate(userId);
    const globalTradingEnabled = controls.params.tradingEnabled;
    if (candidate === undefined) {
      return {
        isRunning: false,
        enabled: false,
        globalTradingEnabled,
        mode: 'paper',
        reason: 'Unknown user',
      };
    }
    const result = await eligibility(candidate, engineNow());
    const reason = !running ? 'Trading engine is not running' : result.reason;
    return {
      isRunning: running && result.eligible,
      enabled: candidate.trading.bot_enabled,
      globalTradingEnabled,
      mode: result.mode,
      ...(reason === undefined ? {} : { reason }),
    };
  }

  async function pushBotStatus(userId: number): Promise<void> {
    const status = await botStatus(userId);
    const wire = {
      isRunning: status.isRunning,
      ...(status.reason === undefined ? {} : { reason: status.reason }),
    };
    // The user's room only: the payload names no user, and every socket (an admin's too) applies `bot:status` as
    // the state of its own bot, so a copy to the admins room would show admins other users' bots as theirs.
    publisher.toUser(userId, 'bot:status', wire);
  }

  function unrealisedPnlPaise(userId: number): number {
    const account = risk?.account(String(userId));
    return account ? toPaise(Object.values(account.unrealised).reduce((sum, v) => sum + v, 0)) : 0;
  }

  async function pushAllBotStatuses(): Promise<void> {
    for (const row of await listBotEnabledSettings(knex)) await pushBotStatus(row.user_id);
  }

  async function statsFor(userId: number): Promise<UserStatsDto> {
    const now = engineNow();
    const { all, today } = await userTradeTotals(knex, userId, istMidnightOf(now));
    return presentStats({
      todayPnlPaise: today.pnlPaise + unrealisedPnlPaise(userId),
      totalPnlPaise: all.pnlPaise,
      closedTrades: all.closedTrades,
      wins: all.wins,
    });
  }

  // ---- quotes and accounts ----------------------------------------------------------------------------------

  function subscribeQuote(symbol: string): void {
    const refs = quoteRefs.get(symbol) ?? 0;
    quoteRefs.set(symbol, refs + 1);
    if (refs === 0) feed?.subscribe(symbol);
  }

  function unsubscribeQuote(symbol: string): void {
    const refs = (quoteRefs.get(symbol) ?? 0) - 1;
    if (refs > 0) {
      quoteRefs.set(symbol, refs);
      return;
    }
    quoteRefs.delete(symbol);
    quotes.delete(symbol);
    feed?.unsubscribe(symbol);
  }

  function ensureAccount(userId: number, maxDailyLossPaise: number): string {
    const accountId = String(userId);
    if (router !== undefined && scheduler !== undefined && !accounts.has(accountId)) {
      router.addAccount({
        accountId,
        broker: new PaperBroker({
          quotes: { getQuote: (s) => quotes.get(s) },
          scheduler,
          idPrefix: `P${userId}-`,
        }),
        maxOrdersPerSecond: controls.maxOrdersPerSecond,
      });
      accounts.add(accountId);
    }
    risk?.configureAccount(
      accountId,
      maxDailyLossPaise > 0 ? maxDailyLossPaise / 100 : NO_ACCOUNT_LOSS_LIMIT,
    );
    return accountId;
  }

  /** Waits until every order is terminal (paper orders already are), or gives up after a while. */
  function settled(clientOrderIds: readonly string[]): Promise<Order[]> {
    const current = () => clientOrderIds.map((id) => router?.getOrder(id)).filter((o): o is Order => !!o);
    const done = () => {
      const orders = current();
      return orders.length === clientOrderIds.length && orders.every((o) => isTerminal(o.state));
    };
    if (done() || router === undefined) return Promise.resolve(current());
    const changes$ = router.changes$;
    return new Promise((resolve) => {
      const sub = new Subscription();
      const finish = () => {
        sub.unsubscribe();
        resolve(current());
      };
      sub.add(changes$.subscribe(() => done() && finish()));
      sub.add(realtime.schedule(finish, ORDER_SETTLE_TIMEOUT_MS));
    });
  }

  function averageFill(orders: readonly Order[]): { quantity: number; price: number } {
    const quantity = orders.reduce((sum, o) => sum + o.filledQty, 0);
    const value = orders.reduce((sum, o) => sum + o.filledQty * o.avgPrice, 0);
    return { quantity, price: quantity > 0 ? Math.round((value / quantity) * 100) / 100 : 0 };
  }

  // ---- publishing (always after the commit) -----------------------------------------------------------------

  async function publishTradeChange(
    trade: TradeRow,
    user: UserRow | undefined,
    logRow?: LogRow,
  ): Promise<void> {
    publisher.toUser(trade.user_id, 'user:trade', presentTrade(trade));
    const owner = user ?? (await findUserById(knex, trade.user_id));
    if (owner !== undefined) publisher.toAdmins('admin:trade', presentAdminTrade(trade, owner));
    if (logRow !== undefined) publisher.toAdmins('admin:log', presentLog(logRow));
  }

  async function publishUserState(userId: number): Promise<void> {
    publisher.toUser(userId, 'user:stats', await statsFor(userId));
    await pushBotStatus(userId);
  }

  // ---- signals ----------------------------------------------------------------------------------------------

  async function persistSignal(signal: Signal): Promise<SignalRow> {
    const known = signalIds.get(signal.key);
    if (known !== undefined) {
      const row = await findSignal(knex, known);
      if (row !== undefined) return row;
    }
    const { signal: row } = await insertSignal(knex, {
      signal_at: signal.time,
      type: signal.type,
      condition_met: signal.condition,
      entry_trigger_x100: Math.round(signal.entryTrigger * 100),
      nifty_price_x100: Math.round(signal.niftyPrice * 100),
      setup_candle_at: signal.setupCandleTime,
      expires_at: signal.expiresAt,
      interval_minutes: signal.interval,
    });
    signalIds.set(signal.key, row.id);
    return row;
  }

  async function onStrategyEvent(event: StrategyEvent): Promise<void> {
    const { signal } = event;
    if (event.kind === 'armed') {
      publisher.toAdmins('admin:signal', presentSignal(await persistSignal(signal)));
      return;
    }
    const row = await persistSignal(signal);
    signalIds.delete(signal.key);
    if (event.kind === 'executed') {
      const executed =
        (await markSignalExecuted(
          knex,
          row.id,
          signal.executedAt ?? engineNow(),
          Math.round((signal.executedPrice ?? signal.entryTrigger) * 100),
        )) ?? row;
      publisher.toAdmins('admin:signal', presentSignal(executed));
      await fanOut(executed, signal);
      return;
    }
    await markSignalSkipped(knex, row.id, signal.reason ?? event.kind);
    publisher.toAdmins('admin:signal', presentSignal((await findSignal(knex, row.id)) ?? row));
  }

  async function fanOut(row: SignalRow, signal: Signal): Promise<void> {
    const time = signal.executedAt ?? engineNow();
    for (const settings of await listBotEnabledSettings(knex)) {
      const candidate = await loadCandidate(settings.user_id);
      if (candidate === undefined) continue;
      const verdict = await eligibility(candidate, time, signal.type);
      if (!verdict.eligible) {
        log.debug({ userId: candidate.user.id, signalId: row.id, reason: verdict.reason }, 'user not traded');
        continue;
      }
      try {
        await enter(candidate, row, signal, time);
      } catch (err) {
        log.error({ err, userId: candidate.user.id, signalId: row.id }, 'entry failed');
      }
    }
  }

  // ---- entries ----------------------------------------------------------------------------------------------

  async function enter(candidate: Candidate, row: SignalRow, signal: Signal, time: number): Promise<void> {
    if (router === undefined || risk === undefined || market === undefined) return;
    const { user, settings, trading } = candidate;
    const accountId = ensureAccount(user.id, settings.max_daily_loss_paise);
    if (!risk.canEnter(accountId, time).ok) return;
    const index = signal.executedPrice ?? signal.entryTrigger;
    const expiry = currentWeeklyExpiry(market.expiries, time);
    const { strike, optionType } = selectStrike(signal.type, index, [], market.expiries.strikeStep);
    const symbol = formatOptionSymbol({ underlying: 'NIFTY', expiry, strike, optionType });
    const lots = trading.trade_quantity;
    const quantity = lots * market.expiries.lotSize(expiry);
    // The paper broker fills at the option's quote: subscribe before routing so the quote is there.
    subscribeQuote(symbol);
    let kept = false;
    try {
      const result = await router.submit({
        intentKey: `${row.id}:${user.id}:entry`,
        accountId,
        signalId: String(row.id),
        symbol,
        side: 'BUY',
        quantity,
        type: 'MARKET',
      });
      if (result.status === 'duplicate' || result.status === 'failed') {
        if (result.error) log.warn({ userId: user.id, error: result.error }, 'entry not placed');
        return;
      }
      const orders = await settled(result.orders.map((o) => o.clientOrderId));
      const fill = averageFill(orders);
      if (fill.quantity !== quantity || !orders.every((o) => o.state === 'FILLED')) {
        log.warn({ userId: user.id, symbol, states: orders.map((o) => o.state) }, 'entry did not fill');
        return;
      }
      const riskConfig: PositionRiskConfig = {
        entryPrice: fill.price,
        stopLoss: controls.params.stopLoss,
        // The user's Trading Settings target (15–40 points); the global target when the row has none.
        target: trading.target_points > 0 ? trading.target_points : controls.params.target,
        squareOffAt: squareOffInstant(market, time, controls.squareOffTime),
        entryTime: time,
      };
      const state = createPositionRisk(riskConfig);
      const { trade, logRow } = await knex.transaction(async (trx) => {
        const inserted = await insertTrade(trx, {
          user_id: user.id,
          signal_id: row.id,
          symbol,
          instrument: 'NIFTY',
          trade_type: signal.type,
          option_type: optionType,
          strike_x100: strike * 100,
          expiry_at: market?.expiries.expiryInstant(expiry) ?? time,
          lots,
          quantity,
          entry_price_paise: toPaise(fill.price),
          stop_loss_paise: toPaise(state.stopPrice),
          target_paise: toPaise(state.targetPrice),
          paper: true,
          risk_state: JSON.stringify(state),
          opened_at: time,
          status: 'open',
        });
        for (const order of orders) {
          await updateOrderByClientId(trx, order.clientOrderId, { trade_id: inserted.id });
        }
        const logRow = await appendLog(trx, {
          event_type: 'trade',
          description: `Paper trade #${inserted.id} opened: BUY ${quantity} ${symbol} @ ${rupees(fill.price)} on ${signal.type} signal #${row.id}; stop ${rupees(state.stopPrice)}, target ${rupees(state.targetPrice)}`,
          user_id: user.id,
          data: { tradeId: inserted.id, signalId: row.id, symbol, quantity, entryPrice: fill.price },
        });
        return { trade: inserted, logRow };
      });
      const opened = risk.openPosition({
        positionId: String(trade.id),
        accountId,
        symbol,
        quantity,
        time,
        risk: riskConfig,
      });
      if (!opened.ok)
        log.error({ tradeId: trade.id, reason: opened.reason }, 'risk manager refused a filled entry');
      addPosition({ trade, user, exitSeq: 0, exiting: false, persistedKey: riskKey(state) });
      kept = true;
      await publishTradeChange(trade, user, logRow);
      await publishUserState(user.id);
    } finally {
      if (!kept) unsubscribeQuote(symbol);
    }
  }

  function addPosition(position: OpenPosition): void {
    positions.set(position.trade.id, position);
    const ids = bySymbol.get(position.trade.symbol) ?? new Set<number>();
    ids.add(position.trade.id);
    bySymbol.set(position.trade.symbol, ids);
  }

  function removePosition(tradeId: number): void {
    const position = positions.get(tradeId);
    if (position === undefined) return;
    positions.delete(tradeId);
    dirty.delete(tradeId);
    const ids = bySymbol.get(position.trade.symbol);
    ids?.delete(tradeId);
    if (ids?.size === 0) bySymbol.delete(position.trade.symbol);
    unsubscribeQuote(position.trade.symbol);
  }

  // ---- exits ------------------------------------------------------------------------------------------------

  function exit(instruction: ExitInstruction): void {
    background(`exit of trade ${instruction.positionId}`, runExit(instruction));
  }

  async function runExit(instruction: ExitInstruction): Promise<void> {
    const tradeId = Number(instruction.positionId);
    const position = positions.get(tradeId);
    if (position === undefined || position.exiting || router === undefined) return;
    position.exiting = true;
    position.exitSeq += 1;
    let filled = false;
    try {
      const result = await router.submit({
        intentKey: `${tradeId}:exit:${position.exitSeq}`,
        accountId: instruction.accountId,
        symbol: instruction.symbol,
        side: 'SELL',
        quantity: instruction.quantity,
        type: 'MARKET',
      });
      const orders = await settled(result.orders.map((o) => o.clientOrderId));
      const fill = averageFill(orders);
      if (
        orders.length > 0 &&
        orders.every((o) => o.state === 'FILLED') &&
        fill.quantity === instruction.quantity
      ) {
        filled = true;
        await closePosition(position, fill.price, instruction.reason, engineNow());
      }
    } finally {
      if (!filled) {
        position.exiting = false;
        // Not filled (no quote, rejected): try again shortly at the latest price, until it fills.
        if (running) {
          subscriptions.add(
            realtime.schedule(() => {
              const again = risk?.retryExit(instruction.positionId, engineNow());
              if (again !== undefined) exit(again);
            }, EXIT_RETRY_MS),
          );
        }
      }
    }
  }

  async function closePosition(
    position: OpenPosition,
    exitPrice: number,
    reason: ExitReason,
    time: number,
  ): Promise<void> {
    const { trade } = position;
    const finalRisk = risk?.openPositions().find((p) => p.positionId === String(trade.id))?.risk;
    const charges = roundTripCharges({
      buyPremium: trade.entry_price_paise / 100,
      sellPremium: exitPrice,
      quantity: trade.quantity,
    });
    const grossPaise = (toPaise(exitPrice) - trade.entry_price_paise) * trade.quantity;
    const chargesPaise = toPaise(charges.total);
    const netPaise = grossPaise - chargesPaise;
    const result = await knex.transaction(async (trx) => {
      if (finalRisk !== undefined) {
        await updateTrade(trx, trade.id, {
          risk_state: JSON.stringify(finalRisk),
          stop_loss_paise: toPaise(finalRisk.stopPrice),
          target_paise: toPaise(finalRisk.targetPrice),
        });
      }
      const closed = await closeTrade(trx, trade.id, {
        exit_price_paise: toPaise(exitPrice),
        pnl_paise: netPaise,
        charges_paise: chargesPaise,
        exit_reason: exitReasonColumn(reason),
        closed_at: time,
      });
      if (closed === undefined) return undefined;
      const logRow = await appendLog(trx, {
        event_type: 'trade',
        description: `Paper trade #${trade.id} closed (${exitReasonColumn(reason)}): SELL ${trade.quantity} ${trade.symbol} @ ${rupees(exitPrice)}; net P&L ${rupees(netPaise / 100)} after ${rupees(chargesPaise / 100)} charges`,
        user_id: trade.user_id,
        data: { tradeId: trade.id, exitPrice, reason, grossPaise, chargesPaise, netPaise },
      });
      return { closed, logRow };
    });
    const followUps = risk?.closePosition(String(trade.id), exitPrice, time, charges.total) ?? [];
    removePosition(trade.id);
    if (result === undefined) return;
    await publishTradeChange(result.closed, position.user, result.logRow);
    await publishUserState(trade.user_id);
    // A realised loss can hit the daily limit and flatten the account's other positions.
    for (const instruction of followUps) exit(instruction);
  }

  // ---- the tick and quote paths (memory only) ---------------------------------------------------------------

  function onQuote(quote: Quote): void {
    quotes.set(quote.symbol, quote);
    const ids = bySymbol.get(quote.symbol);
    if (ids === undefined || risk === undefined) return;
    const exits = risk.onPrice(quote.symbol, quote.ltp, quote.time);
    for (const id of ids) dirty.add(id);
    for (const instruction of exits) exit(instruction);
  }

  /** Writes stops / high-water marks / targets that moved since the last write, then pushes the trade. */
  async function flushRisk(): Promise<void> {
    if (risk === undefined || dirty.size === 0) return;
    const states = new Map(risk.openPositions().map((p) => [Number(p.positionId), p.risk]));
    for (const id of [...dirty]) {
      dirty.delete(id);
      const position = positions.get(id);
      const state = states.get(id);
      if (position === undefined || state === undefined) continue;
      const key = riskKey(state);
      if (key === position.persistedKey) continue;
      const stopMoved = toPaise(state.stopPrice) !== position.trade.stop_loss_paise;
      const updated = await updateTrade(knex, id, {
        risk_state: JSON.stringify(state),
        stop_loss_paise: toPaise(state.stopPrice),
        target_paise: toPaise(state.targetPrice),
      });
      position.persistedKey = key;
      if (updated !== undefined && updated.status === 'open') {
        position.trade = updated;
        // Users see their stop trail; a new high alone is not worth a push.
        if (stopMoved) publisher.toUser(updated.user_id, 'user:trade', presentTrade(updated));
      }
    }
  }

  // ---- restart ----------------------------------------------------------------------------------------------

  /** Rebuilds the risk manager from the open trades (their `risk_state`) and today's realised P&L per user. */
  async function restore(calendarDate: (time: number) => string, now: number): Promise<RiskManager> {
    const open = await listOpenTrades(knex);
    const users = new Set<number>([...open.map((t) => t.user_id)]);
    for (const row of await listBotEnabledSettings(knex)) users.add(row.user_id);
    const accountStates: Record<string, AccountRiskState> = {};
    for (const userId of users) {
      const settings = await getUserSettings(knex, userId);
      const today = await tradeStats(knex, { userId, since: istMidnightOf(now) });
      const state: AccountRiskState = {
        accountId: String(userId),
        maxDailyLoss: settings.max_daily_loss_paise / 100,
        tradingDate: calendarDate(now),
        realisedPnl: today.pnlPaise / 100,
        unrealised: {},
        locked: false,
      };
      accountStates[state.accountId] = { ...state, locked: breachesDailyLoss(state) };
    }
    const positionStates: Record<string, RiskPosition> = {};
    for (const trade of open) {
      const riskState: PositionRiskState =
        trade.risk_state === null
          ? createPositionRisk({
              entryPrice: trade.entry_price_paise / 100,
              stopLoss: (trade.entry_price_paise - trade.stop_loss_paise) / 100,
              target: (trade.target_paise - trade.entry_price_paise) / 100,
              entryTime: trade.opened_at,
            })
          : (JSON.parse(trade.risk_state) as PositionRiskState);
      positionStates[String(trade.id)] = {
        positionId: String(trade.id),
        accountId: String(trade.user_id),
        symbol: trade.symbol,
        quantity: trade.quantity,
        openedAt: trade.opened_at,
        risk: riskState,
      };
      const exitOrders = (await listOrders(knex, { tradeId: trade.id })).filter((o) => o.purpose === 'exit');
      const exitSeq = exitOrders.reduce((max, o) => {
        const n = /:exit:(\d+)/.exec(o.intent_key);
        return Math.max(max, n ? Number(n[1]) : 0);
      }, 0);
      addPosition({ trade, user: undefined, exitSeq, exiting: false, persistedKey: riskKey(riskState) });
    }
    return RiskManager.fromJSON(
      {
        version: 1,
        tradingState: controls.params.tradingEnabled ? 'ACTIVE' : 'HALTED',
        accounts: accountStates,
        positions: positionStates,
      },
      { tradingDate: calendarDate },
    );
  }

  // ---- lifecycle --------------------------------------------------------------------------------------------

  async function start(): Promise<void> {
    if (running) return;
    await loadControls();
    market = createMarketContext({ mode: config.simSession, now: clock.now() });
    for (const warning of market.warnings) log.warn(warning);
    const seed = config.simSeed ?? Math.floor(Math.random() * 2 ** 31);
    let source: FeedSource;
    let engineClock: SchedulerLike;
    if (options.feed !== undefined) {
      source = options.feed;
      engineClock =
        options.scheduler ?? createScaledScheduler({ speed: config.simSpeed, base: asyncScheduler });
    } else {
      const configured = await createConfiguredFeed({
        feed: config.feed,
        seed,
        speed: config.simSpeed,
        market,
        ...(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
      });
      source = configured.source;
      engineClock = configured.scheduler;
      if (config.feed === 'sim') log.info({ seed }, 'simulated feed seed (SIM_SEED to repeat)');
    }
    feed = source;
    scheduler = engineClock;
    const now = engineClock.now();
    const calendar = market.calendar;
    view = createMarketView({
      publisher,
      tradingDate: (t) => calendar.tradingDate(t),
      scheduler: realtime,
      tickBroadcastMs: config.tickBroadcastMs,
    });
    view.setBroadcastIntervals(controls.params.interval === 1 ? [1] : [1, controls.params.interval]);
    router = new OrderRouter({
      scheduler: engineClock,
      store: createDbOrderStore({ db, publisher, brokerOf: () => 'paper' }),
      quotes: { getQuote: (s) => quotes.get(s) },
      tag: controls.algoTag,
      tickSize: () => market?.expiries.tickSize ?? 0.05,
    });
    router.anomalies$.subscribe((anomaly) => log.warn({ anomaly }, 'order router anomaly'));
    risk = await restore((t) => calendar.tradingDate(t), now);
    router.start();

    subscriptions = new Subscription();
    const marketView = view;
    subscriptions.add(
      source.ticks$.subscribe((tick) => {
        marketView.onTick(tick);
      }),
    );
    for (const interval of CANDLE_INTERVALS) {
      subscriptions.add(
        source.ticks$
          .pipe(toCandles({ interval, calendar, scheduler: engineClock, emitForming: true }))
          .subscribe((candle) => marketView.onCandle(candle)),
      );
    }
    subscriptions.add(
      source.ticks$
        .pipe(
          breakoutSignals({
            calendar,
            scheduler: engineClock,
            params: controls.params,
            params$: params$.asObservable(),
            emitCandles: false,
          }),
        )
        .subscribe({
          next: (event) => {
            if (event.kind !== 'candle') enqueue(`signal ${event.kind}`, () => onStrategyEvent(event));
          },
          error: (err: unknown) => log.error({ err }, 'strategy stream failed'),
        }),
    );
    subscriptions.add(source.quotes$.subscribe((quote) => onQuote(quote)));
    subscriptions.add(
      source.health$.subscribe((next) => {
        health = next;
        publisher.toMarket('feed:health', presentFeedHealth(source.kind, next));
      }),
    );
    if (market.mode === 'market') {
      // The square-off must happen even when a position's option stops quoting.
      subscriptions.add(
        interval(1_000, engineClock).subscribe(() => {
          for (const instruction of risk?.onTime(engineClock.now()) ?? []) exit(instruction);
        }),
      );
    }
    subscriptions.add(
      interval(RISK_FLUSH_MS, realtime).subscribe(() => background('risk flush', flushRisk())),
    );
    subscriptions.add(
      interval(CONTROLS_RELOAD_MS, realtime).subscribe(() => background('controls reload', loadControls())),
    );

    for (const position of positions.values()) {
      const { trade } = position;
      const settings = await getUserSettings(knex, trade.user_id);
      ensureAccount(trade.user_id, settings.max_daily_loss_paise);
      subscribeQuote(trade.symbol);
    }
    running = true;
    source.start();
    // An exit that was in flight when the server stopped is sent again.
    for (const position of risk.openPositions()) {
      if (position.risk.exit !== undefined) {
        const again = risk.retryExit(position.positionId, engineClock.now());
        if (again !== undefined) exit(again);
      }
    }
    log.info(
      { feed: source.kind, session: market.mode, speed: config.simSpeed, openPositions: positions.size },
      'trading engine started',
    );
  }

  async function stop(): Promise<void> {
    if (!running) return;
    running = false;
    feed?.stop();
    subscriptions.unsubscribe();
    // Work already queued (a signal's fan-out, an exit) finishes against the database before it closes.
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
    for (const id of positions.keys()) dirty.add(id);
    await flushRisk();
    router?.stop();
    for (const accountId of accounts) router?.removeAccount(accountId);
    accounts.clear();
    view?.dispose();
    positions.clear();
    bySymbol.clear();
    quotes.clear();
    quoteRefs.clear();
    signalIds.clear();
    log.info('trading engine stopped');
  }

  options.health?.register('engine', () =>
    running
      ? {
          status: 'ok',
          detail: `${positions.size} open position(s), ${controls.params.tradingEnabled ? 'trading' : 'paused'}`,
        }
      : { status: 'down', detail: 'not running' },
  );
  options.health?.register('market_feed', () => {
    if (!running) return { status: 'down', detail: 'not running' };
    if (health.status === 'live') return { status: 'ok', detail: `${feed?.kind ?? config.feed} live` };
    const closed = market !== undefined && !market.calendar.isInSession(engineNow());
    if (closed) return { status: 'ok', detail: 'market closed' };
    return {
      status: health.status === 'stale' ? 'degraded' : 'down',
      detail: `${feed?.kind ?? config.feed} ${health.status}`,
    };
  });

  // Snapshots for a (re)connecting socket: the market figures, its bot status and its stats.
  publisher.onSync('market', ({ socketId }) => {
    const tick = view?.tick();
    if (tick) publisher.toSocket(socketId, 'market:tick', tick);
    publisher.toSocket(
      socketId,
      'feed:health',
      presentFeedHealth(feed?.kind ?? config.feed.split(':')[0] ?? config.feed, health),
    );
  });
  publisher.onSync('bot', async ({ socketId, userId }) => {
    const status = await botStatus(userId);
    publisher.toSocket(socketId, 'bot:status', {
      isRunning: status.isRunning,
      ...(status.reason === undefined ? {} : { reason: status.reason }),
    });
  });
  publisher.onSync('stats', async ({ socketId, userId }) => {
    publisher.toSocket(socketId, 'user:stats', await statsFor(userId));
  });

  return {
    start,
    stop,
    reloadControls: loadControls,
    botStatus,
    async onUserChanged(userId) {
      const candidate = await loadCandidate(userId);
      if (candidate !== undefined && running) ensureAccount(userId, candidate.settings.max_daily_loss_paise);
      await pushBotStatus(userId);
    },
    statsFor,
    unrealisedPnlPaise,
    lotSize(now) {
      const expiries = market?.expiries ?? createMarketContext({ mode: config.simSession, now }).expiries;
      return expiries.lotSize(currentWeeklyExpiry(expiries, now));
    },
    marketTick: () => view?.tick() ?? null,
    candles: (candleInterval, limit) => view?.candles(candleInterval, limit) ?? [],
    feedHealth: () => presentFeedHealth(feed?.kind ?? config.feed.split(':')[0] ?? config.feed, health),
    async strategyInfo() {
      if (!controlsLoaded) await loadControls();
      const { params, squareOffTime } = controls;
      const alwaysOpen = config.simSession === 'always';
      const rules = describeStrategy(params, { squareOffTime, alwaysOpen });
      // The user's trading-hours setting is the server's rule, not the engine's: say that demo mode ignores it.
      if (alwaysOpen) rules.push('Demo mode: the trading hours in your Settings are not applied.');
      return {
        name: STRATEGY_NAME,
        intervalMinutes: params.interval,
        rules,
        params: {
          consecutiveCandles: params.consecutiveCandles,
          minMovement: params.minMovement,
          entryOffset: params.entryOffset,
          stopLoss: params.stopLoss,
          target: params.target,
          callEnabled: params.callEnabled,
          putEnabled: params.putEnabled,
          tradingEnabled: params.tradingEnabled,
          squareOffTime,
        },
      };
    },
    openPositions: () => risk?.openPositions() ?? [],
    async idle() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
  };
}
