import type { MarketCalendar } from '../calendar/marketCalendar';
import type { ExpiryCalendar } from '../calendar/expiry';
import type { ChargeRates } from '../charges/charges';
import type { OptionType, SignalType, Tick } from '../core/types';
import type { TargetMode } from '../risk/positionRisk';
import type { CloseReason } from '../runtime/types';
import type { StrategyParams } from '../strategy/params';
import type { CandleSeries } from './candleSeries';
import type { BacktestMetrics } from './metrics';
import type { PremiumModelOptions } from './premiumModel';

/** Why a backtest trade closed: a risk rule, or the data ran out with it still open (never BROKER: paper only). */
export type TradeExitReason = CloseReason;

/** One closed backtest trade. Times are epoch ms; premiums are rupees per unit; money is rupees. */
export interface BacktestTrade {
  /** close of the setup candle of the signal that opened it */
  readonly signalTime: number;
  readonly type: SignalType;
  readonly optionType: OptionType;
  readonly strike: number;
  /** weekly expiry, `YYYY-MM-DD` */
  readonly expiry: string;
  /** canonical symbol, e.g. `NIFTY13JAN2626100CE` */
  readonly symbol: string;
  readonly entryTime: number;
  readonly exitTime: number;
  /** index price at entry (the executing tick) and at exit */
  readonly entryIndex: number;
  readonly exitIndex: number;
  /** fill prices: the model ask plus slippage at entry, the model bid minus slippage at exit */
  readonly entryPremium: number;
  readonly exitPremium: number;
  /** the model LTP that triggered the exit (what the risk rules saw) */
  readonly exitTrigger: number;
  readonly lots: number;
  readonly quantity: number;
  readonly grossPnl: number;
  readonly charges: number;
  readonly netPnl: number;
  readonly exitReason: TradeExitReason;
}

/** A strategy signal as the backtest reports it: armed, then executed or expired. */
export interface BacktestSignal {
  /** the setup candle's close, epoch ms */
  readonly time: number;
  readonly type: SignalType;
  readonly entryTrigger: number;
  /** close of the setup candle */
  readonly niftyPrice: number;
  /** a tick reached the trigger within the armed interval */
  readonly executed: boolean;
  readonly executedAt?: number;
  /** the execution opened a trade (false when a position was already open, or at/after square-off) */
  readonly traded: boolean;
}

/** Progress of a running backtest, reported every `progressEvery` ticks. */
export interface BacktestProgress {
  /** ticks read so far */
  readonly ticks: number;
  /** time of the last tick read, epoch ms */
  readonly time: number;
}

/** Everything a backtest needs besides the ticks. */
export interface BacktestOptions {
  readonly params: StrategyParams;
  /** session calendar: the exchange calendar (`market`) or the always-open one (`always`) */
  readonly calendar: MarketCalendar;
  /** weekly expiries, lot sizes and strike step; always from the exchange calendar, whatever `calendar` is */
  readonly expiries: ExpiryCalendar;
  /** annualised implied volatility for every premium, e.g. 0.14 */
  readonly iv: number;
  /** continuously compounded risk-free rate (default 0.065) */
  readonly riskFreeRate?: number;
  /** lots per trade (default 1); quantity = lots × the contract's lot size */
  readonly lots?: number;
  /** units per trade, overriding lots × lot size */
  readonly quantity?: number;
  /** charge rates of a round trip (default NSE_OPTION_CHARGES) */
  readonly charges?: ChargeRates;
  /** spread and slippage of fills (defaults: half-spread 0.25% of premium, at least a tick; 1 tick slippage) */
  readonly fills?: Pick<PremiumModelOptions, 'halfSpread' | 'slippageTicks'>;
  /** exchange freeze quantity: larger orders are split, each leg paying brokerage (default 1800) */
  readonly freezeQuantity?: number;
  /** notional capital for the drawdown percentage (default ₹1,00,000) */
  readonly capital?: number;
  /** break-even then trailing stop (default true, as live) */
  readonly trailing?: boolean;
  /** fixed or dynamic target (default fixed, as live) */
  readonly targetMode?: TargetMode;
  readonly onProgress?: (progress: BacktestProgress) => void;
  /** ticks between progress reports (default 65,536) */
  readonly progressEvery?: number;
}

/** Input of `runBacktest`: the options and a stream of ticks in time order. */
export interface BacktestInput extends BacktestOptions {
  readonly ticks: Iterable<Tick> | AsyncIterable<Tick>;
}

/** Counts of what the backtest read. */
export interface BacktestStats {
  readonly ticks: number;
  /** ticks that went into a candle (in session, not late) */
  readonly ticksUsed: number;
  readonly firstTickTime: number | null;
  readonly lastTickTime: number | null;
  readonly signals: number;
  readonly signalsExecuted: number;
}

/** What a backtest produces. */
export interface BacktestResult {
  readonly candles: CandleSeries;
  readonly signals: readonly BacktestSignal[];
  readonly trades: readonly BacktestTrade[];
  readonly metrics: BacktestMetrics;
  readonly stats: BacktestStats;
}
