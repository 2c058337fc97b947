import type { Subscription } from 'rxjs';
import type { Candle, IntervalMinutes, Quote, Tick } from '../core/types';
import { DISCONNECTED_BROKER } from '../execution/disconnectedBroker';
import { OrderRouter } from '../execution/orderRouter';
import { RiskManager } from '../risk/riskManager';
import type { RiskPosition, RiskSnapshot } from '../risk/riskManager';
import type { StrategyEvent } from '../strategy/signal';
import { CandleHub } from './candleHub';
import { EntryDesk } from './entryDesk';
import { ArmedQuotes } from './armedQuotes';
import { ExitDesk } from './exitDesk';
import { PositionBook } from './positionBook';
import { reconcileAccountPositions } from './positionReconciler';
import { StrategyBook } from './strategyBook';
import type { BookEvent } from './strategyBook';
import type { RestoredTrade, StrategyDefinition, TradeOpen } from './types';
import type { DeskContext } from './deskContext';

import type { TradingRuntimeOptions } from './runtimeOptions';
export type { QuoteSubscriptions, TradingRuntimeOptions } from './runtimeOptions';

/**
 * The one trading kernel (the NautilusTrader idea): live trading and backtests differ only in the clock, the feed
 * and the brokers they pass in. Per tick it builds each interval's candles once, runs every strategy, fans an
 * executed signal out to every eligible account at once, manages positions (held once, in the risk manager) to
 * their exits, square-off and the daily loss lock, and reports typed events after the store has them. No I/O:
 * persistence and notification are ports.
 */
export class TradingRuntime {
  readonly router: OrderRouter;
  private riskManager: RiskManager;
  private readonly hub: CandleHub;
  private readonly strategyBook: StrategyBook;
  /** the open positions, one `Position` each (trade record, lifecycle state, exit progress) */
  private readonly book = new PositionBook();
  private readonly entries: EntryDesk;
  private readonly exits: ExitDesk;
  private readonly quotes = new Map<string, Quote>();
  private readonly quoteRefs = new Map<string, number>();
  private readonly armed: ArmedQuotes;
  /** accounts whose positions are being reconciled with their broker */
  private readonly checking = new Set<string>();
  private readonly work = new Set<Promise<unknown>>();
  /** scratch lists of the per-tick path, emptied before each use (their contents never outlive the call) */
  private readonly closedScratch: Candle[] = [];
  private readonly eventScratch: BookEvent[] = [];
  /** per strategy: its signal events are written in order; strategies never wait for one another */
  private readonly signalChains = new Map<string, Promise<unknown>>();
  private lastTime = Number.NEGATIVE_INFINITY;
  private lastIndexValue = Number.NaN;
  private droppedTicks = 0;
  private acceptedTickCount = 0;
  private deadlineAt = Number.POSITIVE_INFINITY;
  private deadline: Subscription | undefined;
  private tradingEnabledValue: boolean;
  private running = false;

  constructor(private readonly options: TradingRuntimeOptions) {
    this.tradingEnabledValue = options.tradingEnabled ?? true;
    this.riskManager = new RiskManager({ tradingDate: (t) => options.calendar.tradingDate(t) });
    if (!this.tradingEnabledValue) this.riskManager.halt();
    this.router = new OrderRouter({
      scheduler: options.scheduler,
      store: options.store.orders,
      quotes: { getQuote: (symbol) => this.quotes.get(symbol) },
      tag: options.algoTag,
      tickSize: () => options.expiries.tickSize,
      ...(options.entryQuoteWaitMs === undefined ? {} : { quoteWaitMs: options.entryQuoteWaitMs }),
    });
    this.strategyBook = new StrategyBook(options.calendar, options.strategies);
    this.hub = new CandleHub({ calendar: options.calendar, intervals: this.intervalsInUse() });
    // The desks are peers wired here, each given the narrow context, never the runtime.
    const currentRisk = (): RiskManager => this.riskManager;
    const desks: DeskContext = {
      router: this.router,
      get risk() {
        return currentRisk();
      },
      book: this.book,
      clock: options.scheduler,
      store: options.store,
      events: options.events,
      quotes: this,
      track: (what, task, accountId) => this.track(what, task, accountId),
      lastIndex: () => this.lastIndexValue,
      deadlinesChanged: () => this.scheduleDeadline(),
    };
    this.exits = new ExitDesk(desks, options);
    this.entries = new EntryDesk(desks, options, this.strategyBook, this.exits);
    this.armed = new ArmedQuotes(this, options.expiries, options.quoteArmedStrikes === true);
  }

  /** Positions, their stops and each account's day P&L and loss lock: held here and nowhere else. */
  get risk(): RiskManager {
    return this.riskManager;
  }

  // ---- lifecycle ------------------------------------------------------------------------------------------

  /** Starts following broker updates and the deadline timer. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.router.start();
    this.router.changes$.subscribe((order) => this.options.events({ kind: 'order', order }));
    this.scheduleDeadline();
  }

  /** Stops timers and broker updates; work in flight finishes (await `idle()`). */
  stop(): void {
    this.running = false;
    this.deadline?.unsubscribe();
    this.deadline = undefined;
    this.deadlineAt = Number.POSITIVE_INFINITY;
    this.exits.stop();
    this.router.stop();
  }

  /** Resolves when every signal, entry and exit in flight has settled and every order write is durable. */
  async idle(): Promise<void> {
    // Order versions are written in the background: idle means they are durable too (tests, shutdown).
    do {
      await Promise.allSettled([...this.work]);
      await this.router.written();
    } while (this.work.size > 0);
  }

  /** True while entries, exits or signal writes are in flight. */
  get busy(): boolean {
    return this.work.size > 0;
  }

  // ---- market data ----------------------------------------------------------------------------------------

  /** An index tick. Older than the last accepted tick → dropped and counted, as ARCHITECTURE.md says. */
  onTick(tick: Tick): void {
    if (!(tick.time >= this.lastTime)) {
      this.droppedTicks += 1;
      return;
    }
    this.lastTime = tick.time;
    this.advanceTo(tick.time);
    // Both scratch lists are empty here: every use below empties them (only when filled: `length = 0` costs).
    const closed = this.closedScratch;
    const events = this.eventScratch;
    const accepted = this.hub.push(tick, closed);
    if (closed.length > 0) {
      for (let i = 0; i < closed.length; i++) this.candleClosed(closed[i] as Candle, events);
      closed.length = 0;
    }
    if (accepted) {
      this.acceptedTickCount += 1;
      this.lastIndexValue = tick.price;
      if (this.options.onCandle && this.options.formingCandles !== false) {
        for (const interval of this.hub.intervals) {
          const forming = this.hub.forming(interval);
          if (forming) this.options.onCandle(forming);
        }
      }
      this.strategyBook.onTick(tick, events);
    } else {
      this.strategyBook.advanceTo(tick.time, events);
    }
    // The deadlines move only when a bucket opened or closed or a strategy event happened (a position's square-off
    // moves with the position, and the desks say so): most ticks leave them alone.
    const deadlinesMayMove = this.hub.bucketsMoved || events.length > 0;
    if (events.length > 0) {
      // `handle` is synchronous and keeps the events, never the list
      this.handle(events);
      events.length = 0;
    }
    if (deadlinesMayMove) this.scheduleDeadline();
  }

  /** An option quote: marks open positions and fires their exits. */
  onQuote(quote: Quote): void {
    this.quotes.set(quote.symbol, quote);
    if (!this.quoteRefs.has(quote.symbol)) return;
    this.exits.onPrice(quote.symbol, quote.ltp, quote.time);
  }

  /** Lets engine time pass to `time`: candle closes, signal expiries and square-offs that are due. */
  advanceTo(time: number): void {
    if (time < this.deadlineAt) return;
    const closed: Candle[] = [];
    this.hub.advanceTo(time, closed);
    const events: BookEvent[] = [];
    for (const candle of closed) this.candleClosed(candle, events);
    this.strategyBook.advanceTo(time, events);
    this.handle(events);
    this.exits.onTime(time);
    this.deadlineAt = Number.POSITIVE_INFINITY;
    this.scheduleDeadline();
  }

  /** End of data (backtests): closes the forming candles and expires armed signals. */
  finish(): void {
    const closed: Candle[] = [];
    this.hub.flush(closed);
    const events: BookEvent[] = [];
    for (const candle of closed) this.candleClosed(candle, events);
    this.strategyBook.advanceTo(Number.POSITIVE_INFINITY, events);
    this.handle(events);
  }

  /** Ticks dropped for being older than the last one. */
  get dropped(): number {
    return this.droppedTicks;
  }

  /** Ticks taken into a candle (in session, in order). */
  get acceptedTicks(): number {
    return this.acceptedTickCount;
  }

  /** The last index level accepted into a candle. */
  get lastIndex(): number {
    return this.lastIndexValue;
  }

  /** The latest quote of a symbol. */
  quote(symbol: string): Quote | undefined {
    return this.quotes.get(symbol);
  }

  // ---- controls -------------------------------------------------------------------------------------------

  /** Replaces the strategies' parameter sets; each applies from its next candle close, entries use them at once. */
  setStrategies(definitions: readonly StrategyDefinition[]): void {
    this.strategyBook.set(definitions);
    this.hub.setIntervals(this.intervalsInUse());
  }

  /** The strategies running now. */
  strategies(): readonly StrategyDefinition[] {
    return this.strategyBook.definitions();
  }

  /** Master switch: off stops new entries at once; open positions are still managed to their exits. */
  setTradingEnabled(enabled: boolean): void {
    if (enabled === this.tradingEnabledValue) return;
    this.tradingEnabledValue = enabled;
    if (enabled) this.risk.resume();
    else this.risk.halt();
    this.options.events({ kind: 'halted', tradingEnabled: enabled });
  }

  get tradingEnabled(): boolean {
    return this.tradingEnabledValue;
  }

  /** Kill switch: squares off every open position now; returns how many. */
  flattenAll(): number {
    return this.exits.flattenAll(this.options.scheduler.now());
  }

  /** Squares off every open position with `reason` at the last prices (backtests: END_OF_DATA). */
  closeAllAtLast(reason: 'END_OF_DATA', time: number): Promise<void> {
    return this.exits.closeAllAtLast(reason, time);
  }

  /** Registers (or re-configures) an account before it trades: its broker and daily loss limit (rupees). */
  configureAccount(accountId: string, maxDailyLoss: number): void {
    this.entries.ensureAccount(accountId, maxDailyLoss);
  }

  /** Removes an account's broker (its session ended); its open positions stay managed by their records. */
  removeAccount(accountId: string): void {
    this.entries.removeAccount(accountId);
  }

  /** Open positions: the one place positions are held. */
  positions(accountId?: string): readonly RiskPosition[] {
    return this.risk.openPositions(accountId);
  }

  /** The open trade behind a position. */
  openTrade(tradeId: string): TradeOpen | undefined {
    return this.exits.trade(tradeId);
  }

  /** Unrealised P&L of an account's open positions at the last quotes, rupees. */
  unrealisedPnl(accountId: string): number {
    return this.risk.unrealised(accountId);
  }

  /**
   * Restores open positions after a restart: the risk snapshot (positions with their stops, accounts' day P&L)
   * and each position's trade record; exits that were in flight are sent again once started.
   */
  restore(snapshot: RiskSnapshot, trades: ReadonlyMap<string, RestoredTrade>): void {
    this.riskManager = RiskManager.fromJSON(
      { ...snapshot, tradingState: this.tradingEnabledValue ? 'ACTIVE' : 'HALTED' },
      { tradingDate: (t) => this.options.calendar.tradingDate(t) },
    );
    for (const [tradeId, restored] of trades) {
      this.exits.restorePosition(tradeId, restored.trade, restored.exitSeq, restored.exitFills);
    }
    for (const accountId of Object.keys(snapshot.accounts)) {
      const account = snapshot.accounts[accountId];
      if (account !== undefined) this.entries.ensureAccount(accountId, account.maxDailyLoss);
    }
  }

  /**
   * After a restart (call after `start`, before `resumeExits`): brings back the orders that were open, closes each
   * trade whose exit had already filled (on those fills, never selling again), finds each live position's stop
   * resting at the broker (or places it again) and asks the brokers where every recovered order stands, so a stop
   * that filled while the process was down closes its trade.
   */
  async recoverOrders(): Promise<void> {
    await this.router.recover();
    await this.exits.restoreExits();
    await this.router.reconcile();
  }

  /**
   * Reconciles a live account's positions with its broker (after a start or a reconnect; positionReconciler.ts):
   * the broker wins. Emits `positions-checked`; an account trading on paper, or with an order under way (its own
   * orders settle it), is not checked.
   */
  async reconcilePositions(accountId: string): Promise<void> {
    const busy = (id: string): boolean =>
      this.entries.isEntering(id) || this.positions(id).some((p) => p.risk.exit !== undefined);
    // One check per account at a time: two reconnects in a row must not both act on one difference.
    if (busy(accountId) || this.checking.has(accountId)) return;
    this.checking.add(accountId);
    const outcome = await reconcileAccountPositions(
      {
        scheduler: this.options.scheduler,
        brokerClock: this.options.brokerClock ?? this.options.scheduler,
        brokerPositions: (id) => this.router.brokerPositions(id),
        brokerName: (id) => this.router.brokerName(id),
        busy,
        held: (id) =>
          this.positions(id).flatMap((p) => {
            const trade = this.exits.trade(p.positionId);
            if (trade === undefined || trade.paper) return [];
            return [
              { positionId: p.positionId, symbol: p.symbol, quantity: p.quantity, openedAt: trade.entryTime },
            ];
          }),
        closeAtBroker: (id, time) => this.exits.closeAtBroker(id, time),
        ...(this.options.positionCheckConfirmMs === undefined
          ? {}
          : { confirmAfterMs: this.options.positionCheckConfirmMs }),
      },
      accountId,
    ).finally(() => this.checking.delete(accountId));
    if (outcome !== undefined) this.options.events({ kind: 'positions-checked', ...outcome });
  }

  /**
   * An account's broker session changed: renewed (a reconnect) or ended. An account holding live positions gets its
   * broker built again — over the new session, so their exits and stops reach the broker again, then its orders and
   * positions are reconciled with the broker; or, with no session, a disconnected broker that holds exits back.
   */
  async sessionChanged(accountId: string): Promise<void> {
    const live = this.positions(accountId).some((p) => this.exits.trade(p.positionId)?.paper === false);
    if (!live) return;
    this.entries.rebuildBroker(accountId, { paper: false });
    if (this.router.brokerName(accountId) === DISCONNECTED_BROKER) return;
    await this.router.reconcile(accountId);
    await this.reconcilePositions(accountId);
  }

  /**
   * The restart order, as code (call after `restore` and `start`): the orders that were open come back and each
   * live position's resting stop is found (recover) — before any exit in flight is sent again, since an exit
   * takes the stop off first (resume exits) — and then every account holding live positions is checked against
   * its broker (reconcile; the broker wins), tracked so `idle()` waits for it.
   */
  async resumeAfterRestart(): Promise<void> {
    // the accounts of every live position restored, before recovery closes any of them
    const live = new Set<string>();
    for (const position of this.positions()) {
      if (this.exits.trade(position.positionId)?.paper === false) live.add(position.accountId);
    }
    await this.recoverOrders();
    this.resumeExits();
    for (const accountId of live) {
      this.track(`positions check of account ${accountId}`, this.reconcilePositions(accountId), accountId);
    }
  }

  /** Sends again the exits that were in flight when the process stopped (call after `start`). */
  resumeExits(): void {
    this.exits.resume(this.options.scheduler.now());
  }

  /** Writes moved stops of open positions and reports their mark-to-market P&L (call on a throttle). */
  flushRisk(): Promise<void> {
    return this.exits.flushRisk();
  }

  // ---- used by the desks ----------------------------------------------------------------------------------

  /** Tracks async work so `idle()` can wait for it; failures become `log` events. */
  track(what: string, task: Promise<unknown>, accountId?: string): void {
    const guarded = task.catch((err: unknown) => {
      this.options.events({
        kind: 'log',
        level: 'error',
        message: `${what} failed: ${err instanceof Error ? err.message : String(err)}`,
        ...(accountId === undefined ? {} : { accountId }),
      });
    });
    this.work.add(guarded);
    void guarded.then(() => this.work.delete(guarded));
  }

  /** Starts quoting a symbol (counted: several positions may hold it). */
  subscribeQuote(symbol: string): void {
    const refs = this.quoteRefs.get(symbol) ?? 0;
    this.quoteRefs.set(symbol, refs + 1);
    if (refs === 0) this.options.quotes.subscribe(symbol);
  }

  unsubscribeQuote(symbol: string): void {
    const refs = (this.quoteRefs.get(symbol) ?? 0) - 1;
    if (refs > 0) {
      this.quoteRefs.set(symbol, refs);
      return;
    }
    this.quoteRefs.delete(symbol);
    this.quotes.delete(symbol);
    this.options.quotes.unsubscribe(symbol);
  }

  /** Re-arms the deadline timer when the earliest deadline moved (square-offs change with positions). */
  scheduleDeadline(): void {
    const next = this.nextDeadline();
    if (!this.running || next === this.deadlineAt) return;
    this.deadline?.unsubscribe();
    this.deadlineAt = next;
    if (next === Number.POSITIVE_INFINITY) {
      this.deadline = undefined;
      return;
    }
    const { scheduler } = this.options;
    this.deadline = scheduler.schedule(
      () => {
        this.deadline = undefined;
        this.advanceTo(Math.max(scheduler.now(), next));
      },
      Math.max(0, next - scheduler.now()),
    );
  }

  // ---- internals ------------------------------------------------------------------------------------------

  private intervalsInUse(): IntervalMinutes[] {
    return [...new Set([...this.strategyBook.intervals(), ...(this.options.chartIntervals ?? [])])];
  }

  private nextDeadline(): number {
    // Runs on every tick: no array, no iterator.
    let next = Number.POSITIVE_INFINITY;
    const closesAt = this.hub.closesAt;
    if (closesAt !== undefined && closesAt < next) next = closesAt;
    const expiry = this.strategyBook.nextExpiry;
    if (expiry !== undefined && expiry < next) next = expiry;
    const squareOff = this.exits.nextSquareOff();
    if (squareOff !== undefined && squareOff < next) next = squareOff;
    return next;
  }

  private candleClosed(candle: Candle, events: BookEvent[]): void {
    this.options.onCandle?.(candle);
    this.strategyBook.onCandle(candle, events);
  }

  /**
   * A strategy's signal events are persisted strictly in order (an execution needs its armed row's id), then fanned
   * out. One chain per strategy: another strategy's writes never delay (or reorder) its entries and exits.
   */
  private handle(events: readonly BookEvent[]): void {
    for (const { strategyId, event } of events) {
      const chain = this.signalChains.get(strategyId) ?? Promise.resolve();
      const saved = chain.then(() => this.options.store.saveSignal(strategyId, event));
      this.signalChains.set(
        strategyId,
        saved.catch(() => undefined),
      );
      this.track(
        `signal ${event.kind}`,
        saved.then((signalId) => this.signalSaved(strategyId, signalId, event)),
      );
    }
  }

  private signalSaved(strategyId: string, signalId: string, event: StrategyEvent): void {
    this.options.events({ kind: 'signal', strategyId, signalId, event });
    const { signal } = event;
    if (event.kind === 'armed') {
      this.armed.hold(signal, this.options.scheduler.now());
      if (this.options.prepareArmedEntries === true) this.entries.prepare(strategyId, signal);
    } else if (event.kind === 'executed') {
      void this.entries.fanOut(strategyId, signalId, signal).then(() => this.armed.release(signal.key));
    } else this.armed.release(signal.key);
  }
}
