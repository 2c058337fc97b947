import { createSteppingClock } from '../clock/virtualClock';
import type { SteppingClock } from '../clock/virtualClock';
import type { Candle, Quote, Tick } from '../core/types';
import { InMemoryOrderStore } from '../execution/orderStore';
import { PAPER_SLIPPAGE, PaperBroker } from '../execution/paperBroker';
import { createQuoteBook } from '../feeds/quoteBook';
import type { QuoteBook } from '../feeds/quoteBook';
import { createSyntheticQuoter } from '../feeds/syntheticQuotes';
import type { TargetMode } from '../risk/positionRisk';
import { TradingRuntime } from '../runtime/tradingRuntime';
import type { RuntimeAccount, RuntimeEvent, RuntimeStore, TradeOpen } from '../runtime/types';
import type { StrategyParams } from '../strategy/params';
import { computeMetrics } from './metrics';
import type { BacktestMetrics } from './metrics';
import type {
  BacktestOptions,
  BacktestProgress,
  BacktestSignal,
  BacktestStats,
  BacktestTrade,
} from './types';

/** Notional capital of the drawdown percentage when none is given (₹1,00,000). */
export const DEFAULT_BACKTEST_CAPITAL = 100_000;

/** One parameter set of a sweep: a strategy's parameters and the trader's settings of the one account trading it. */
export interface SweepSet {
  /** unique within the pass; the set's strategy id and account id */
  readonly id: string;
  readonly params: StrategyParams;
  /** lots per trade */
  readonly lots: number;
  /** units per trade, overriding lots × lot size */
  readonly quantity?: number;
  /** break-even then trailing stop */
  readonly trailing: boolean;
  readonly targetMode: TargetMode;
  /** notional capital of the drawdown percentage (default ₹1,00,000) */
  readonly capital?: number;
}

/** What one pass shares between its sets: the data, the session, the premium model and the fills. */
export type SweepPassOptions = Pick<
  BacktestOptions,
  'calendar' | 'expiries' | 'iv' | 'riskFreeRate' | 'charges' | 'fills' | 'freezeQuantity' | 'progressEvery'
> & {
  readonly sets: readonly SweepSet[];
  readonly onProgress?: (progress: BacktestProgress) => void;
  /** every closed candle of each set's interval (a backtest's chart) */
  readonly onCandle?: (candle: Candle) => void;
};

/** One set's outcome: what a backtest of that set alone reports, without the candles (shared by the pass). */
export interface SweepSetResult {
  readonly id: string;
  readonly signals: readonly BacktestSignal[];
  readonly trades: readonly BacktestTrade[];
  readonly metrics: BacktestMetrics;
  readonly stats: BacktestStats;
}

const DEFAULT_PROGRESS_EVERY = 65_536;

interface SignalRecord {
  time: number;
  type: BacktestSignal['type'];
  entryTrigger: number;
  niftyPrice: number;
  executed: boolean;
  executedAt?: number;
  traded: boolean;
}

interface SetState {
  readonly set: SweepSet;
  readonly account: RuntimeAccount;
  readonly signals: SignalRecord[];
  readonly trades: BacktestTrade[];
}

/**
 * Many parameter sets over one stream of ticks in one pass of the trading runtime: each set is one strategy
 * (its parameters) followed by one paper account (its lots, trailing and target mode), so candles are built once
 * per interval and each tick is read once for all of them. Sets never interact — one position per account, each
 * account its own broker — so each set's result equals a `Backtester` run of that set alone, which is a pass of
 * that one set (sweepPass.test.ts: sets sharing a pass never change each other's results).
 * Drive it like a `Backtester`: `push` every tick in time order (await what it returns), then `finish`.
 */
export class SweepPass {
  private readonly options: SweepPassOptions;
  private readonly states = new Map<string, SetState>();
  private readonly signalsById = new Map<string, SignalRecord>();
  private readonly opened = new Map<string, TradeOpen>();
  private readonly progressEvery: number;
  private clock: SteppingClock | undefined;
  private runtime: TradingRuntime | undefined;
  private quotes: QuoteBook | undefined;
  private last: Tick | null = null;
  private tickCount = 0;
  // NaN until the first tick, not null: a field that may hold null boxes every epoch-ms number stored in it
  private firstTickTime = Number.NaN;
  private lastTickTime = Number.NaN;
  private nextProgressAt: number;
  private finished: readonly SweepSetResult[] | undefined;

  constructor(options: SweepPassOptions) {
    if (options.sets.length === 0) throw new RangeError('a sweep pass needs at least one set');
    if (!(options.iv > 0) || options.iv > 5)
      throw new RangeError(`iv must be > 0 and ≤ 5 (500%), got ${options.iv}`);
    for (const set of options.sets) {
      if (this.states.has(set.id)) throw new RangeError(`set id "${set.id}" appears twice`);
      if (!Number.isInteger(set.lots) || set.lots < 1)
        throw new RangeError(`set ${set.id}: lots must be a whole number ≥ 1, got ${set.lots}`);
      if (set.quantity !== undefined && (!Number.isInteger(set.quantity) || set.quantity < 1)) {
        throw new RangeError(`set ${set.id}: quantity must be a whole number ≥ 1, got ${set.quantity}`);
      }
      const account: RuntimeAccount = {
        accountId: set.id,
        lots: set.lots,
        maxDailyLoss: 0,
        paper: true,
        trailing: set.trailing,
        targetMode: set.targetMode,
        ...(set.quantity === undefined ? {} : { quantity: set.quantity }),
      };
      this.states.set(set.id, { set, account, signals: [], trades: [] });
    }
    this.options = options;
    this.progressEvery = Math.max(1, options.progressEvery ?? DEFAULT_PROGRESS_EVERY);
    this.nextProgressAt = this.progressEvery;
  }

  /** Ticks dropped for being older than the one before. */
  get dropped(): number {
    return this.runtime?.dropped ?? 0;
  }

  /**
   * Feeds the next tick; returns a promise only while an entry or exit is in flight (await it before the next
   * tick). As on a live clock: deadlines before the tick fire and their work settles first; deadlines at the
   * tick's own instant fire just before it, with the tick delivered while their orders are on their way.
   */
  push(tick: Tick): Promise<void> | undefined {
    if (this.finished) throw new Error('the sweep pass has finished');
    const t = tick.time;
    this.tickCount += 1;
    if (this.tickCount === 1) this.firstTickTime = t;
    this.lastTickTime = t;
    const runtime = this.runtime ?? this.start(t);
    const clock = this.clock as SteppingClock;
    const due = clock.nextDue();
    if (due !== undefined && due < t) return this.settleBefore(runtime, clock, tick);
    clock.advanceTo(t);
    return this.deliver(runtime, tick);
  }

  private async settleBefore(runtime: TradingRuntime, clock: SteppingClock, tick: Tick): Promise<void> {
    for (let due = clock.nextDue(); due !== undefined && due < tick.time; due = clock.nextDue()) {
      clock.advanceTo(due);
      await runtime.idle();
    }
    clock.advanceTo(tick.time);
    await this.deliver(runtime, tick);
  }

  private deliver(runtime: TradingRuntime, tick: Tick): Promise<void> | undefined {
    const dropped = runtime.dropped;
    runtime.onTick(tick);
    if (runtime.dropped === dropped) {
      this.last = tick;
      (this.quotes as QuoteBook).publish(tick.price, tick.time);
    }
    if (this.tickCount === this.nextProgressAt) {
      this.nextProgressAt += this.progressEvery;
      this.options.onProgress?.({ ticks: this.tickCount, time: tick.time });
    }
    return runtime.busy ? runtime.idle() : undefined;
  }

  /** End of data: closes still-open positions at their last price (`END_OF_DATA`); one result per set, in order. */
  async finish(): Promise<readonly SweepSetResult[]> {
    if (this.finished) return this.finished;
    const runtime = this.runtime;
    if (runtime !== undefined) {
      await runtime.idle();
      await runtime.closeAllAtLast('END_OF_DATA', this.tickCount === 0 ? 0 : this.lastTickTime);
      runtime.finish();
      await runtime.idle();
      runtime.stop();
    }
    const ticksUsed = runtime?.acceptedTicks ?? 0;
    this.finished = [...this.states.values()].map(({ set, signals, trades }) => {
      const frozen: BacktestSignal[] = signals.map((s) => Object.freeze({ ...s }));
      return {
        id: set.id,
        signals: frozen,
        trades,
        metrics: computeMetrics(trades, set.capital ?? DEFAULT_BACKTEST_CAPITAL),
        stats: {
          ticks: this.tickCount,
          ticksUsed,
          firstTickTime: this.tickCount === 0 ? null : this.firstTickTime,
          lastTickTime: this.tickCount === 0 ? null : this.lastTickTime,
          signals: frozen.length,
          signalsExecuted: frozen.filter((s) => s.executed).length,
        },
      };
    });
    if (this.options.onProgress && this.tickCount > 0) {
      this.options.onProgress({ ticks: this.tickCount, time: this.lastTickTime });
    }
    return this.finished;
  }

  private start(firstTime: number): TradingRuntime {
    const { options } = this;
    const clock = createSteppingClock(firstTime);
    const quoter = createSyntheticQuoter({
      atmVolatility: options.iv,
      tickSize: options.expiries.tickSize,
      expiryInstant: (date) => options.expiries.expiryInstant(date),
      ...(options.riskFreeRate === undefined ? {} : { rate: options.riskFreeRate }),
      ...(options.fills?.halfSpread === undefined ? {} : { halfSpread: options.fills.halfSpread }),
    });
    const quotes = createQuoteBook(quoter, () =>
      this.last ? { spot: this.last.price, time: this.last.time } : null,
    );
    // A broker per account, as live: no set's orders ever meet another's.
    const brokerOf = (): PaperBroker =>
      new PaperBroker({
        quotes: { getQuote: (symbol: string): Quote | undefined => runtime.quote(symbol) },
        scheduler: clock.scheduler,
        slippage:
          options.fills?.slippageTicks === undefined
            ? PAPER_SLIPPAGE
            : { ticks: options.fills.slippageTicks },
        tickSize: options.expiries.tickSize,
        capabilities: { freezeQty: options.freezeQuantity ?? 1_800 },
      });
    const runtime: TradingRuntime = new TradingRuntime({
      calendar: options.calendar,
      expiries: options.expiries,
      scheduler: clock.scheduler,
      quotes,
      brokers: brokerOf,
      store: this.createStore(),
      accounts: {
        eligible: ({ strategyId }) => {
          const state = this.states.get(strategyId);
          return Promise.resolve(state === undefined ? [] : [state.account]);
        },
      },
      strategies: options.sets.map((set) => ({
        id: set.id,
        name: `set ${set.id}`,
        kind: 'consecutive_breakout' as const,
        params: set.params,
      })),
      algoTag: 'BACKTEST',
      events: (event) => this.onEvent(event),
      ...(options.onCandle === undefined ? {} : this.closedCandles(options.onCandle)),
      ...(options.freezeQuantity === undefined ? {} : { freezeQuantity: options.freezeQuantity }),
      ...(options.charges === undefined ? {} : { chargeRates: options.charges }),
    });
    quotes.onQuote((quote) => runtime.onQuote(quote));
    runtime.start();
    this.clock = clock;
    this.quotes = quotes;
    this.runtime = runtime;
    return runtime;
  }

  /** Runtime options passing each set's closed candles of its own interval to `onCandle`. */
  private closedCandles(onCandle: (candle: Candle) => void) {
    const intervals = new Set(this.options.sets.map((set) => set.params.interval));
    return {
      onCandle: (candle: Candle) => {
        if (candle.closed && intervals.has(candle.interval)) onCandle(candle);
      },
      // a backtest charts closed candles only: no forming-candle snapshot per tick
      formingCandles: false,
    };
  }

  /** The in-memory store: ids in order, nothing kept but what the results need. */
  private createStore(): RuntimeStore {
    const signalIds = new Map<string, string>();
    let nextTrade = 0;
    return {
      orders: new InMemoryOrderStore(),
      saveSignal: (strategyId, event) => {
        // Two sets can arm on the same candle: a signal is one strategy's.
        const key = `${strategyId}|${event.signal.key}`;
        let id = signalIds.get(key);
        if (id === undefined) {
          id = String(signalIds.size + 1);
          signalIds.set(key, id);
        }
        return Promise.resolve(id);
      },
      openTrade: (trade) => {
        nextTrade += 1;
        const id = String(nextTrade);
        this.opened.set(id, trade);
        return Promise.resolve(id);
      },
      saveRisk: () => Promise.resolve(),
      closeTrade: () => Promise.resolve(),
    };
  }

  private onEvent(event: RuntimeEvent): void {
    switch (event.kind) {
      case 'signal': {
        const { signal } = event.event;
        const state = this.states.get(event.strategyId);
        if (state === undefined) return;
        if (event.event.kind === 'armed' || event.event.kind === 'suppressed') {
          const record: SignalRecord = {
            time: signal.time,
            type: signal.type,
            entryTrigger: signal.entryTrigger,
            niftyPrice: signal.niftyPrice,
            executed: false,
            traded: false,
          };
          state.signals.push(record);
          this.signalsById.set(event.signalId, record);
        } else if (event.event.kind === 'executed') {
          const record = this.signalsById.get(event.signalId);
          if (record !== undefined) {
            record.executed = true;
            record.executedAt = signal.executedAt ?? signal.time;
          }
        }
        return;
      }
      case 'trade-opened': {
        const record = this.signalsById.get(event.trade.signalId);
        if (record !== undefined) record.traded = true;
        return;
      }
      case 'trade-closed': {
        const { close } = event;
        const open = this.opened.get(close.tradeId);
        const state = this.states.get(close.accountId);
        if (open === undefined || state === undefined) return;
        this.opened.delete(close.tradeId);
        state.trades.push(
          Object.freeze({
            signalTime: open.signalTime,
            type: open.type,
            optionType: open.optionType,
            strike: open.strike,
            expiry: open.expiry,
            symbol: open.symbol,
            entryTime: open.entryTime,
            exitTime: close.exitTime,
            entryIndex: open.entryIndex,
            exitIndex: close.exitIndex,
            entryPremium: open.entryPremium,
            exitPremium: close.exitPremium,
            exitTrigger: close.exitTrigger,
            lots: open.lots,
            quantity: open.quantity,
            grossPnl: close.grossPnl,
            charges: close.charges,
            netPnl: close.netPnl,
            exitReason: close.reason,
          }),
        );
        return;
      }
      default:
        return;
    }
  }
}
