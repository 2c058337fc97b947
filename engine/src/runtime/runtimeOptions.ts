// The options of the trading runtime, apart from it so its desks can read them without importing the runtime.
import type { SchedulerLike } from 'rxjs';
import type { ExpiryCalendar } from '../calendar/expiry';
import type { ChargeRates } from '../charges/charges';
import type { MarketCalendar } from '../calendar/marketCalendar';
import type { Candle, IntervalMinutes } from '../core/types';
import type { TargetMode } from '../risk/positionRisk';
import type { AccountsPort, BrokerFactory, RuntimeEvent, RuntimeStore, StrategyDefinition } from './types';

/** The quote side of a feed: which option symbols the runtime needs quoted. */
export interface QuoteSubscriptions {
  subscribe(symbol: string): void;
  unsubscribe(symbol: string): void;
}

/** Options of {@link TradingRuntime}. */
export interface TradingRuntimeOptions {
  /** the session calendar (exchange calendar, or always open for the demo) */
  readonly calendar: MarketCalendar;
  /** weekly expiries, lot sizes and strike step (always the exchange's) */
  readonly expiries: ExpiryCalendar;
  /** the engine clock: real (scaled) live, virtual in backtests */
  readonly scheduler: SchedulerLike;
  readonly quotes: QuoteSubscriptions;
  readonly brokers: BrokerFactory;
  readonly store: RuntimeStore;
  readonly accounts: AccountsPort;
  readonly strategies: readonly StrategyDefinition[];
  /** SEBI algo tag on every order */
  readonly algoTag: string;
  readonly tradingEnabled?: boolean;
  /** extra candle intervals built for charts (closed and forming candles go to `onCandle`) */
  readonly chartIntervals?: readonly IntervalMinutes[];
  readonly onCandle?: (candle: Candle) => void;
  /** whether `onCandle` also gets each interval's forming candle after every tick (default true: charts) */
  readonly formingCandles?: boolean;
  readonly events: (event: RuntimeEvent) => void;
  /** when positions opened at `time` are squared off (default the calendar's square-off time) */
  readonly squareOffAt?: (time: number) => number | null;
  /** orders per second per account, ≤ 10 (SEBI) */
  readonly maxOrdersPerSecond?: number;
  /** engine ms an account's entry may take to fill before it is given up for this signal (default 30 s) */
  readonly fillTimeoutMs?: number;
  /** engine ms before an unfilled exit is sent again (default 1 s) */
  readonly exitRetryMs?: number;
  readonly freezeQuantity?: number;
  /** charge rates of a round trip (default NSE_OPTION_CHARGES) */
  readonly chargeRates?: ChargeRates;
  readonly trailing?: boolean;
  readonly targetMode?: TargetMode;
  /** the broker's lot size of a contract when its instrument master is loaded */
  readonly lotSizeOf?: (symbol: string) => number | undefined;
  /** ms between the two looks of a position check (default 3 s), on `brokerClock` */
  readonly positionCheckConfirmMs?: number;
  /** the real time brokers' books run on (default `scheduler`; live servers pass the wall clock) */
  readonly brokerClock?: SchedulerLike;
  /**
   * quote the contract an armed signal would buy while it is armed: a broker's feed quotes an option only after it
   * is subscribed, and a market order needs its LTP for protection the moment the signal executes
   */
  readonly quoteArmedStrikes?: boolean;
  /**
   * how long (engine ms) an entry's market order may wait for its contract's first quote before it is refused as
   * NO_QUOTE; default 0. On a broker's feed the contract bought can be one strike from the one quoted while armed
   * (the tick that executes moved the ATM), and its first price trails its subscription by a moment
   */
  readonly entryQuoteWaitMs?: number;
  /**
   * when a signal arms, the accounts that would enter are registered with the router, and the live ones ready
   * their brokers (`Broker.prepare`), so the orders leave without set-up when it executes
   */
  readonly prepareArmedEntries?: boolean;
}
