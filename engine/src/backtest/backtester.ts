import { istDate } from '../calendar/ist';
import type { ExpiryCalendar } from '../calendar/expiry';
import type { MarketCalendar } from '../calendar/marketCalendar';
import { NSE_OPTION_CHARGES, roundTripCharges } from '../charges/charges';
import type { ChargeRates } from '../charges/charges';
import type { OptionType, SignalType, Tick } from '../core/types';
import { splitByFreezeQty } from '../execution/freezeSplit';
import { formatOptionSymbol } from '../instruments/optionSymbol';
import { selectStrike } from '../instruments/strikes';
import { createPositionRisk, onPrice } from '../risk/positionRisk';
import type { PositionExit, PositionRiskState } from '../risk/positionRisk';
import type { PipelineEvent, Signal } from '../strategy/signal';
import { SignalPipeline } from '../strategy/signalPipeline';
import { CandleSeries } from './candleSeries';
import { computeMetrics, toPaise } from './metrics';
import { createPremiumModel } from './premiumModel';
import type { PremiumModel } from './premiumModel';
import type {
  BacktestInput,
  BacktestOptions,
  BacktestProgress,
  BacktestResult,
  BacktestSignal,
  BacktestTrade,
  TradeExitReason,
} from './types';

/** Notional capital of the drawdown percentage when none is given (₹1,00,000). */
export const DEFAULT_BACKTEST_CAPITAL = 100_000;
/** Units per order above which the exchange rejects an order, so it is split (DOMAIN.md §1, [verify]). */
export const DEFAULT_FREEZE_QUANTITY = 1_800;

const DEFAULT_PROGRESS_EVERY = 65_536;
/** A finite "never" for positions without a square-off (the always-open calendar), so the state stays JSON. */
const NO_SQUARE_OFF = Number.MAX_SAFE_INTEGER;

/** The weekly contract a position opened at `time` buys: today's expiry once it has stopped trading is replaced by the next. */
export function currentWeeklyExpiry(expiries: ExpiryCalendar, time: number): string {
  const [first, second] = expiries.weeklyExpiries(istDate(time), 2) as [string, string];
  return time < expiries.expiryInstant(first) ? first : second;
}

interface OpenPosition {
  readonly signalTime: number;
  readonly type: SignalType;
  readonly optionType: OptionType;
  readonly strike: number;
  readonly expiry: string;
  readonly expiryAt: number;
  readonly symbol: string;
  readonly lots: number;
  readonly quantity: number;
  /** orders per side after freeze-quantity splitting (each pays brokerage) */
  readonly orders: number;
  readonly entryTime: number;
  readonly entryIndex: number;
  readonly entryPremium: number;
  readonly squareOffAt: number;
  risk: PositionRiskState;
}

interface SignalRecord {
  time: number;
  type: SignalType;
  entryTrigger: number;
  niftyPrice: number;
  executed: boolean;
  executedAt?: number;
  traded: boolean;
}

/**
 * The backtest engine: the live candle builder and strategy (`SignalPipeline`) and the live risk state machine
 * (`positionRisk`), driven by the ticks' own timestamps as a virtual clock. Push ticks in time order, then call
 * `finish()`. It keeps no ticks: per tick it holds only the last index price, so any length of data streams through.
 *
 * Virtual clock: before each tick, every deadline at or before its time fires in time order — the forming
 * candle's end (`advanceTo`, i.e. the builder's `closeUntil`), the armed signal's expiry, and the open position's
 * square-off — exactly as the live engine's timers would fire on the scheduler, even when no tick follows.
 */
export class Backtester {
  private readonly options: BacktestOptions;
  private readonly calendar: MarketCalendar;
  private readonly expiries: ExpiryCalendar;
  private readonly model: PremiumModel;
  private readonly rates: ChargeRates;
  private readonly pipeline: SignalPipeline;
  private readonly candles = new CandleSeries();
  private readonly signals: SignalRecord[] = [];
  private readonly trades: BacktestTrade[] = [];
  private readonly onProgress: ((progress: BacktestProgress) => void) | undefined;
  private readonly progressEvery: number;

  private position: OpenPosition | undefined;
  /** the record of the armed signal, settled by its `executed` / `expired` event */
  private armed: SignalRecord | undefined;
  /** earliest deadline (candle end, signal expiry, square-off); ticks before it skip the clock entirely */
  private nextEventAt = Number.NEGATIVE_INFINITY;
  private tick: Tick | undefined;
  /** the open position has already been priced with `tick` */
  private priced = false;
  private lastIndex = Number.NaN;
  private lastIndexTime = Number.NaN;
  private tickCount = 0;
  private ticksUsed = 0;
  private firstTickTime: number | null = null;
  private lastTickTime: number | null = null;
  private nextProgressAt: number;
  private finished: BacktestResult | undefined;
  private contracts:
    { date: string; first: string; firstAt: number; second: string; secondAt: number } | undefined;

  constructor(options: BacktestOptions) {
    this.options = options;
    this.calendar = options.calendar;
    this.expiries = options.expiries;
    this.model = createPremiumModel({
      iv: options.iv,
      riskFreeRate: options.riskFreeRate,
      tickSize: options.expiries.tickSize,
      ...options.fills,
    });
    this.rates = options.charges ?? NSE_OPTION_CHARGES;
    const lots = options.lots ?? 1;
    if (!Number.isInteger(lots) || lots < 1)
      throw new RangeError(`lots must be a whole number ≥ 1, got ${lots}`);
    if (options.quantity !== undefined && (!Number.isInteger(options.quantity) || options.quantity < 1)) {
      throw new RangeError(`quantity must be a whole number ≥ 1, got ${options.quantity}`);
    }
    this.onProgress = options.onProgress;
    this.progressEvery = Math.max(1, options.progressEvery ?? DEFAULT_PROGRESS_EVERY);
    this.nextProgressAt = this.progressEvery;
    this.pipeline = new SignalPipeline({
      calendar: options.calendar,
      params: options.params,
      onEvent: (event) => this.onEvent(event),
    });
  }

  /** Feeds the next tick (ticks must come in time order; older ones are dropped as live). */
  push(tick: Tick): void {
    if (this.finished) throw new Error('the backtest has finished');
    const t = tick.time;
    this.tickCount += 1;
    this.firstTickTime ??= t;
    this.lastTickTime = t;
    if (t >= this.nextEventAt) this.runClockTo(t);
    this.tick = tick;
    this.priced = false;
    const pipeline = this.pipeline;
    pipeline.push(tick);
    if (pipeline.builder.accepted) {
      this.ticksUsed += 1;
      this.lastIndex = tick.price;
      this.lastIndexTime = t;
      if (this.position !== undefined && !this.priced) this.price(tick);
    }
    this.nextEventAt = this.nextDeadline();
    if (this.tickCount === this.nextProgressAt) {
      this.nextProgressAt += this.progressEvery;
      this.onProgress?.({ ticks: this.tickCount, time: t });
    }
  }

  /** End of data: closes a still-open position at the last price (`END_OF_DATA`), the forming candle, and reports. */
  finish(): BacktestResult {
    if (this.finished) return this.finished;
    const position = this.position;
    if (position !== undefined) {
      const time = this.lastIndexTime;
      const ltp = this.model.ltp(
        position.optionType,
        this.lastIndex,
        position.strike,
        position.expiryAt - time,
      );
      this.close(position, { reason: 'END_OF_DATA', price: ltp, time }, this.lastIndex);
    }
    this.pipeline.finish();
    const signals: BacktestSignal[] = this.signals.map((s) => Object.freeze({ ...s }));
    const capital = this.options.capital ?? DEFAULT_BACKTEST_CAPITAL;
    this.finished = {
      candles: this.candles,
      signals,
      trades: this.trades,
      metrics: computeMetrics(this.trades, capital),
      stats: {
        ticks: this.tickCount,
        ticksUsed: this.ticksUsed,
        firstTickTime: this.firstTickTime,
        lastTickTime: this.lastTickTime,
        signals: signals.length,
        signalsExecuted: signals.filter((s) => s.executed).length,
      },
    };
    if (this.onProgress && this.tickCount > 0) {
      this.onProgress({ ticks: this.tickCount, time: this.lastTickTime ?? this.firstTickTime ?? 0 });
    }
    return this.finished;
  }

  private nextDeadline(): number {
    const pipelineDeadline = this.pipeline.nextDeadline ?? Number.POSITIVE_INFINITY;
    const squareOff = this.position?.squareOffAt ?? Number.POSITIVE_INFINITY;
    return pipelineDeadline < squareOff ? pipelineDeadline : squareOff;
  }

  /** Fires every deadline at or before `time`, earliest first (a square-off before a candle end at the same instant). */
  private runClockTo(time: number): void {
    for (;;) {
      const pipelineDeadline = this.pipeline.nextDeadline ?? Number.POSITIVE_INFINITY;
      const position = this.position;
      const squareOff = position?.squareOffAt ?? Number.POSITIVE_INFINITY;
      if (position !== undefined && squareOff <= time && squareOff <= pipelineDeadline) {
        // No tick at the square-off instant: the option is re-priced from the last index value at that instant.
        const ltp = this.model.ltp(
          position.optionType,
          this.lastIndex,
          position.strike,
          position.expiryAt - squareOff,
        );
        this.step(position, ltp, squareOff, this.lastIndex);
      } else if (pipelineDeadline <= time) {
        this.pipeline.advanceTo(pipelineDeadline);
      } else {
        return;
      }
    }
  }

  private onEvent(event: PipelineEvent): void {
    switch (event.kind) {
      case 'candle':
        if (event.candle.closed) this.candles.push(event.candle);
        return;
      case 'armed':
      case 'suppressed': {
        const { signal } = event;
        const record: SignalRecord = {
          time: signal.time,
          type: signal.type,
          entryTrigger: signal.entryTrigger,
          niftyPrice: signal.niftyPrice,
          executed: false,
          traded: false,
        };
        this.signals.push(record);
        this.armed = event.kind === 'armed' ? record : undefined;
        return;
      }
      case 'expired':
        this.armed = undefined;
        return;
      case 'executed':
        this.executed(event.signal);
        return;
    }
  }

  /** A signal executed on the current tick: exits of the open position are decided first, then the entry. */
  private executed(signal: Signal): void {
    const record = this.armed;
    this.armed = undefined;
    const tick = this.tick;
    if (record === undefined || tick === undefined) return;
    record.executed = true;
    record.executedAt = signal.executedAt ?? tick.time;
    if (this.position !== undefined && !this.priced) this.price(tick);
    // Flag the tick as priced so the position opened on it is first re-priced by the next tick.
    this.priced = true;
    if (this.position !== undefined) return; // one position at a time
    record.traded = this.open(signal, tick);
  }

  private open(signal: Signal, tick: Tick): boolean {
    const time = tick.time;
    const spot = signal.executedPrice ?? tick.price;
    const squareOffAt = this.calendar.squareOffTime(time) ?? NO_SQUARE_OFF;
    if (time >= squareOffAt) return false;
    const expiries = this.expiries;
    const { expiry, expiryAt } = this.weeklyContract(time);
    const { strike, optionType } = selectStrike(signal.type, spot, [], expiries.strikeStep);
    const lotSize = expiries.lotSize(expiry);
    const lots = this.options.lots ?? 1;
    const quantity = this.options.quantity ?? lots * lotSize;
    const orders = splitByFreezeQty(
      quantity,
      this.options.freezeQuantity ?? DEFAULT_FREEZE_QUANTITY,
      quantity % lotSize === 0 ? lotSize : 1,
    ).length;
    const entryPremium = this.model.buyFill(this.model.ltp(optionType, spot, strike, expiryAt - time));
    const { params } = this.options;
    this.position = {
      signalTime: signal.time,
      type: signal.type,
      optionType,
      strike,
      expiry,
      expiryAt,
      symbol: formatOptionSymbol({ underlying: 'NIFTY', expiry, strike, optionType }),
      lots: this.options.quantity === undefined ? lots : quantity / lotSize,
      quantity,
      orders,
      entryTime: time,
      entryIndex: spot,
      entryPremium,
      squareOffAt,
      risk: createPositionRisk({
        entryPrice: entryPremium,
        stopLoss: params.stopLoss,
        target: params.target,
        trailing: this.options.trailing ?? true,
        targetMode: this.options.targetMode ?? 'fixed',
        squareOffAt,
        entryTime: time,
      }),
    };
    return true;
  }

  /** {@link currentWeeklyExpiry} with its expiry instant, remembered per IST date (the search walks the calendar). */
  private weeklyContract(time: number): { expiry: string; expiryAt: number } {
    const date = istDate(time);
    let cached = this.contracts;
    if (cached?.date !== date) {
      const [first, second] = this.expiries.weeklyExpiries(date, 2) as [string, string];
      cached = {
        date,
        first,
        firstAt: this.expiries.expiryInstant(first),
        second,
        secondAt: this.expiries.expiryInstant(second),
      };
      this.contracts = cached;
    }
    // Same rule as currentWeeklyExpiry: on expiry day, after the close the next week's contract is bought.
    return time < cached.firstAt
      ? { expiry: cached.first, expiryAt: cached.firstAt }
      : { expiry: cached.second, expiryAt: cached.secondAt };
  }

  /** Re-prices the open position at `tick` and runs its risk rules. */
  private price(tick: Tick): void {
    this.priced = true;
    const position = this.position as OpenPosition;
    const ltp = this.model.ltp(
      position.optionType,
      tick.price,
      position.strike,
      position.expiryAt - tick.time,
    );
    this.step(position, ltp, tick.time, tick.price);
  }

  private step(position: OpenPosition, ltp: number, time: number, index: number): void {
    const risk = position.risk;
    // `onPrice` is pure but builds two new state objects per call (~2 µs), and with 1-second ticks it would be
    // called for nearly every tick of an open trade. Calls that cannot change a decision are skipped: a price
    // strictly between the stop and the target, before square-off, that either sets no new high or sets one
    // that cannot move the stop (trailing off, or the high still short of entry + stopLoss, where the ratchet
    // starts). Such a call would change only `lastPrice` and possibly `highWater`; neither is read here, and a
    // stale `highWater` below entry + stopLoss is corrected by the first price at or above it, which is not
    // skipped. The exits are exactly the risk machine's.
    if (
      ltp > risk.stopPrice &&
      ltp < risk.targetPrice &&
      time < (risk.squareOffAt ?? Number.NEGATIVE_INFINITY) &&
      (ltp <= risk.highWater || !risk.trailing || ltp < risk.entryPrice + risk.stopLoss)
    ) {
      return;
    }
    const { state, exit } = onPrice(risk, ltp, time);
    position.risk = state;
    if (exit !== undefined) this.close(position, exit, index);
  }

  private close(
    position: OpenPosition,
    exit: PositionExit | { reason: TradeExitReason; price: number; time: number },
    index: number,
  ): void {
    const exitPremium = this.model.sellFill(exit.price);
    const { quantity, entryPremium, orders } = position;
    const charges = roundTripCharges(
      { buyPremium: entryPremium, sellPremium: exitPremium, quantity, buyOrders: orders, sellOrders: orders },
      this.rates,
    ).total;
    const grossPnl = toPaise((exitPremium - entryPremium) * quantity);
    this.trades.push(
      Object.freeze({
        signalTime: position.signalTime,
        type: position.type,
        optionType: position.optionType,
        strike: position.strike,
        expiry: position.expiry,
        symbol: position.symbol,
        entryTime: position.entryTime,
        exitTime: exit.time,
        entryIndex: position.entryIndex,
        exitIndex: index,
        entryPremium,
        exitPremium,
        exitTrigger: exit.price,
        lots: position.lots,
        quantity,
        grossPnl,
        charges,
        netPnl: toPaise(grossPnl - charges),
        exitReason: exit.reason,
      }),
    );
    this.position = undefined;
  }
}

/**
 * Backtests the strategy over a stream of ticks (sync or async iterable, in time order) with option premiums
 * modelled by Black–Scholes at the given IV. Ticks are consumed one at a time and never retained.
 */
export async function runBacktest(input: BacktestInput): Promise<BacktestResult> {
  const backtester = new Backtester(input);
  const { ticks } = input;
  if (Symbol.asyncIterator in ticks) {
    for await (const tick of ticks) backtester.push(tick);
  } else {
    for (const tick of ticks) backtester.push(tick);
  }
  return backtester.finish();
}
