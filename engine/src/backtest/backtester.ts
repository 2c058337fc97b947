import { createSteppingClock } from '../clock/virtualClock';
import type { SteppingClock } from '../clock/virtualClock';
import type { Quote, Tick } from '../core/types';
import { InMemoryOrderStore } from '../execution/orderStore';
import { PAPER_SLIPPAGE, PaperBroker } from '../execution/paperBroker';
import { createQuoteBook } from '../feeds/quoteBook';
import type { QuoteBook } from '../feeds/quoteBook';
import { createSyntheticQuoter } from '../feeds/syntheticQuotes';
import { TradingRuntime } from '../runtime/tradingRuntime';
import type { RuntimeEvent, RuntimeStore, TradeOpen } from '../runtime/types';
import { CandleSeries } from './candleSeries';
import { computeMetrics } from './metrics';
import type { BacktestOptions, BacktestInput, BacktestResult, BacktestSignal, BacktestTrade } from './types';

/** Notional capital of the drawdown percentage when none is given (₹1,00,000). */
export const DEFAULT_BACKTEST_CAPITAL = 100_000;
/** The one account a backtest trades. */
const ACCOUNT = 'backtest';
const STRATEGY = 'backtest';
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

/** The in-memory store of a backtest: ids in order, nothing kept but what the report needs. */
function createBacktestStore(): RuntimeStore & { opened: Map<string, TradeOpen> } {
  const signalIds = new Map<string, string>();
  const opened = new Map<string, TradeOpen>();
  let nextTrade = 0;
  return {
    orders: new InMemoryOrderStore(),
    opened,
    saveSignal(_strategyId, event) {
      let id = signalIds.get(event.signal.key);
      if (id === undefined) {
        id = String(signalIds.size + 1);
        signalIds.set(event.signal.key, id);
      }
      return Promise.resolve(id);
    },
    openTrade(trade) {
      nextTrade += 1;
      const id = String(nextTrade);
      opened.set(id, trade);
      return Promise.resolve(id);
    },
    saveRisk: () => Promise.resolve(),
    closeTrade: () => Promise.resolve(),
  };
}

/**
 * A backtest is the trading runtime on a virtual clock, fed recorded ticks, with option quotes priced like the
 * live replay feed's and the paper broker: the same data gives the same trades as `FEED=replay:` live. Push ticks
 * in time order (older ones are dropped and counted, as live), then `finish()`. Nothing but the current tick is
 * kept, so any length of data streams through.
 */
export class Backtester {
  private readonly options: BacktestOptions;
  private readonly candles = new CandleSeries();
  private readonly signals: SignalRecord[] = [];
  private readonly signalsById = new Map<string, SignalRecord>();
  private readonly trades: BacktestTrade[] = [];
  private readonly store = createBacktestStore();
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
  private finished: BacktestResult | undefined;

  constructor(options: BacktestOptions) {
    const lots = options.lots ?? 1;
    if (!Number.isInteger(lots) || lots < 1)
      throw new RangeError(`lots must be a whole number ≥ 1, got ${lots}`);
    if (options.quantity !== undefined && (!Number.isInteger(options.quantity) || options.quantity < 1)) {
      throw new RangeError(`quantity must be a whole number ≥ 1, got ${options.quantity}`);
    }
    if (!(options.iv > 0) || options.iv > 5)
      throw new RangeError(`iv must be > 0 and ≤ 5 (500%), got ${options.iv}`);
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
    if (this.finished) throw new Error('the backtest has finished');
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

  /** End of data: closes a still-open position at its last price (`END_OF_DATA`), the forming candle, and reports. */
  async finish(): Promise<BacktestResult> {
    if (this.finished) return this.finished;
    const runtime = this.runtime;
    if (runtime !== undefined) {
      await runtime.idle();
      await runtime.closeAllAtLast('END_OF_DATA', this.tickCount === 0 ? 0 : this.lastTickTime);
      runtime.finish();
      await runtime.idle();
      runtime.stop();
    }
    const signals: BacktestSignal[] = this.signals.map((s) => Object.freeze({ ...s }));
    this.finished = {
      candles: this.candles,
      signals,
      trades: this.trades,
      metrics: computeMetrics(this.trades, this.options.capital ?? DEFAULT_BACKTEST_CAPITAL),
      stats: {
        ticks: this.tickCount,
        ticksUsed: this.runtime?.acceptedTicks ?? 0,
        firstTickTime: this.tickCount === 0 ? null : this.firstTickTime,
        lastTickTime: this.tickCount === 0 ? null : this.lastTickTime,
        signals: signals.length,
        signalsExecuted: signals.filter((s) => s.executed).length,
      },
    };
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
    const broker = new PaperBroker({
      quotes: { getQuote: (symbol: string): Quote | undefined => runtime.quote(symbol) },
      scheduler: clock.scheduler,
      slippage:
        options.fills?.slippageTicks === undefined ? PAPER_SLIPPAGE : { ticks: options.fills.slippageTicks },
      tickSize: options.expiries.tickSize,
      capabilities: { freezeQty: options.freezeQuantity ?? 1_800 },
    });
    const account = {
      accountId: ACCOUNT,
      lots: options.lots ?? 1,
      maxDailyLoss: 0,
      paper: true,
      ...(options.quantity === undefined ? {} : { quantity: options.quantity }),
    };
    const runtime: TradingRuntime = new TradingRuntime({
      calendar: options.calendar,
      expiries: options.expiries,
      scheduler: clock.scheduler,
      quotes,
      brokers: () => broker,
      store: this.store,
      accounts: { eligible: () => Promise.resolve([account]) },
      strategies: [{ id: STRATEGY, name: 'backtest', kind: 'consecutive_breakout', params: options.params }],
      algoTag: 'BACKTEST',
      onCandle: (candle) => {
        if (candle.closed && candle.interval === options.params.interval) this.candles.push(candle);
      },
      formingCandles: false,
      events: (event) => this.onEvent(event),
      ...(options.freezeQuantity === undefined ? {} : { freezeQuantity: options.freezeQuantity }),
      ...(options.charges === undefined ? {} : { chargeRates: options.charges }),
      trailing: options.trailing ?? true,
      targetMode: options.targetMode ?? 'fixed',
    });
    quotes.onQuote((quote) => runtime.onQuote(quote));
    runtime.start();
    this.clock = clock;
    this.quotes = quotes;
    this.runtime = runtime;
    return runtime;
  }

  private onEvent(event: RuntimeEvent): void {
    switch (event.kind) {
      case 'signal': {
        const { signal } = event.event;
        if (event.event.kind === 'armed' || event.event.kind === 'suppressed') {
          const record: SignalRecord = {
            time: signal.time,
            type: signal.type,
            entryTrigger: signal.entryTrigger,
            niftyPrice: signal.niftyPrice,
            executed: false,
            traded: false,
          };
          this.signals.push(record);
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
        const open = this.store.opened.get(event.close.tradeId);
        if (open === undefined) return;
        this.store.opened.delete(event.close.tradeId);
        const { close } = event;
        this.trades.push(
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

/**
 * Backtests the strategy over a stream of ticks (sync or async iterable, in time order) with option premiums
 * from the live feeds' Black–Scholes quoter at the given IV. Ticks are consumed one at a time and never retained.
 */
export async function runBacktest(input: BacktestInput): Promise<BacktestResult> {
  const backtester = new Backtester(input);
  const { ticks } = input;
  if (Symbol.asyncIterator in ticks) {
    for await (const tick of ticks) await backtester.push(tick);
  } else {
    for (const tick of ticks) {
      const pending = backtester.push(tick);
      if (pending !== undefined) await pending;
    }
  }
  return backtester.finish();
}
