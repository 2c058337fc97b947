import type { OptionType, Quote, SignalType } from '../core/types';
import type { Broker } from '../execution/broker';
import type { OrderStore } from '../execution/orderStore';
import type { Order } from '../execution/orderTypes';
import type { ExitReason, PositionRiskState, TargetMode } from '../risk/positionRisk';
import type { StrategyParams } from '../strategy/params';
import type { Signal, StrategyEvent } from '../strategy/signal';
import type { PositionCheckOutcome } from './positionReconciler';

/**
 * Why a position closed: a risk rule, the data ran out (backtests) with it still open, or the broker no longer held
 * it when positions were reconciled (`BROKER`: sold outside OptionPilot).
 */
export type CloseReason = ExitReason | 'END_OF_DATA' | 'BROKER';

/** A named, persisted parameter set of a strategy kind; the runtime runs every active one. */
export interface StrategyDefinition {
  /** stable id (the database row id as text, `default` for the admin controls' strategy) */
  readonly id: string;
  readonly name: string;
  /** the only kind today: the white-box consecutive-candle breakout */
  readonly kind: 'consecutive_breakout';
  readonly params: StrategyParams;
}

/** An account that may enter on a signal now, as the server's eligibility rules decided. */
export interface RuntimeAccount {
  readonly accountId: string;
  /** lots per entry */
  readonly lots: number;
  /** units per entry overriding lots × lot size (backtests) */
  readonly quantity?: number;
  /** the account's own target in premium points; the strategy's when absent */
  readonly targetPoints?: number;
  /** break-even then trailing stop; the runtime's `trailing` when absent */
  readonly trailing?: boolean;
  /** fixed or dynamic target; the runtime's `targetMode` when absent */
  readonly targetMode?: TargetMode;
  /** rupees; 0 = no daily loss limit */
  readonly maxDailyLoss: number;
  /** paper or live: carried onto the trade */
  readonly paper: boolean;
  /**
   * Which broker the account trades through now ('paper', or a live session such as `zerodha:AB1234:<expiry>`);
   * default 'paper' or 'live'. When it changes while the account is flat, the runtime builds its broker again.
   */
  readonly brokerKey?: string;
}

/** Who trades a signal: the server answers from subscriptions, bot switches, broker sessions and settings. */
export interface AccountsPort {
  /** the accounts following `strategyId` that may enter a `side` signal at `time` */
  eligible(input: {
    readonly strategyId: string;
    readonly signal: Signal;
    readonly time: number;
  }): Promise<readonly RuntimeAccount[]>;
}

/** A filled entry, as the store persists it and as events carry it. Premiums are rupees per unit. */
export interface TradeOpen {
  readonly accountId: string;
  readonly strategyId: string;
  readonly signalId: string;
  /** the setup candle's close of the signal that opened it */
  readonly signalTime: number;
  readonly type: SignalType;
  readonly optionType: OptionType;
  readonly strike: number;
  /** weekly expiry `YYYY-MM-DD` and its instant */
  readonly expiry: string;
  readonly expiryAt: number;
  readonly symbol: string;
  readonly lots: number;
  readonly quantity: number;
  /** orders per side after freeze-quantity splitting (each pays brokerage) */
  readonly legs: number;
  readonly entryTime: number;
  readonly entryIndex: number;
  readonly entryPremium: number;
  readonly paper: boolean;
  readonly risk: PositionRiskState;
  /** the client order ids of the entry */
  readonly orderIds: readonly string[];
}

/** An order's fill as far as it went: what a trade's exit already sold. */
export type OrderFill = Pick<Order, 'clientOrderId' | 'filledQty' | 'avgPrice'>;

/** An open trade brought back after a restart. */
export interface RestoredTrade {
  readonly trade: TradeOpen;
  /** exit orders sent so far (the highest exit `sequence`): the next takes n + 1 */
  readonly exitSeq: number;
  /**
   * what the trade's exit orders (and a resting stop) had already filled when the process stopped: counted towards
   * the exit, so a restart never sells that part again
   */
  readonly exitFills?: readonly OrderFill[];
}

/** A closed trade: the open record plus its exit, in rupees (P&L to the paisa). */
export interface TradeClose {
  readonly tradeId: string;
  readonly accountId: string;
  readonly exitTime: number;
  readonly exitIndex: number;
  readonly exitPremium: number;
  /** the premium that triggered the exit (what the risk rules saw) */
  readonly exitTrigger: number;
  readonly reason: CloseReason;
  readonly grossPnl: number;
  readonly charges: number;
  readonly netPnl: number;
  readonly risk: PositionRiskState;
  readonly orderIds: readonly string[];
}

/** Where the runtime persists what it decides; every event is emitted only after its write resolved. */
export interface RuntimeStore {
  /** the order router's store: orders are persisted before they reach a broker */
  readonly orders: OrderStore;
  /** persists a signal's lifecycle event; returns the signal's id (the same for every event of one signal) */
  saveSignal(strategyId: string, event: StrategyEvent): Promise<string>;
  /** persists a filled entry as an open trade; returns the trade's id */
  openTrade(trade: TradeOpen): Promise<string>;
  /** persists a position's moved stop / high-water mark (called at most once per `riskFlushMs`) */
  saveRisk(tradeId: string, risk: PositionRiskState): Promise<void>;
  /** persists a trade's exit */
  closeTrade(close: TradeClose): Promise<void>;
}

/**
 * Builds the broker of an account (paper, or its live adapter with its own session): with the account as the
 * eligibility rules just decided it, or without when positions are restored after a restart.
 */
export type BrokerFactory = (accountId: string, account?: BrokerChoice) => Broker;

/** What a broker factory chooses by: paper or live, and which live session. */
export type BrokerChoice = Pick<RuntimeAccount, 'paper' | 'brokerKey'>;

/** What the runtime tells the outside world, after the store has it. */
export type RuntimeEvent =
  | {
      readonly kind: 'signal';
      readonly strategyId: string;
      readonly signalId: string;
      readonly event: StrategyEvent;
    }
  | { readonly kind: 'order'; readonly order: Order }
  | { readonly kind: 'trade-opened'; readonly tradeId: string; readonly trade: TradeOpen }
  | {
      readonly kind: 'trade-updated';
      readonly tradeId: string;
      readonly accountId: string;
      readonly risk: PositionRiskState;
      /** mark-to-market P&L at the last quote, rupees */
      readonly markPnl: number;
      readonly stopMoved: boolean;
    }
  | { readonly kind: 'trade-closed'; readonly close: TradeClose }
  | {
      readonly kind: 'log';
      readonly level: 'info' | 'warn' | 'error';
      readonly message: string;
      readonly accountId?: string;
      readonly data?: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'halted'; readonly tradingEnabled: boolean }
  | ({ readonly kind: 'positions-checked' } & PositionCheckOutcome);

/** The latest quote of a symbol, as the feed delivered it. */
export type QuoteLookup = (symbol: string) => Quote | undefined;
