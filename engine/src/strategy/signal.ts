import type { IntervalMinutes, SignalType } from '../core/types';

/**
 * Where a signal is in its life: `armed` (waiting for a tick through the trigger in the next interval),
 * `executed`, `expired` (the interval ended unexecuted) or `suppressed` (the setup formed while trading was
 * disabled: recorded so admins see what the strategy saw, never armed).
 */
export type SignalStatus = 'armed' | 'executed' | 'expired' | 'suppressed';

/** A strategy signal record. Every lifecycle event carries a new frozen copy; the engine never mutates one. */
export interface Signal {
  /** database id, assigned by the server when it persists the signal; the engine leaves it unset */
  readonly id?: number;
  /** stable engine key (`CALL-1m-<setupCandleTime>`) that ties the lifecycle events of one signal together */
  readonly key: string;
  /** the setup candle's close (its end), epoch ms */
  readonly time: number;
  readonly type: SignalType;
  /** human text of the rule that fired, with the candle bodies */
  readonly condition: string;
  /** index level a tick must reach: ≥ for CALL, ≤ for PUT */
  readonly entryTrigger: number;
  /** close of the setup candle */
  readonly niftyPrice: number;
  /** start of the setup candle, epoch ms */
  readonly setupCandleTime: number;
  readonly interval: IntervalMinutes;
  /** end of the armed interval `[time, expiresAt)`, epoch ms */
  readonly expiresAt: number;
  readonly status: SignalStatus;
  readonly executed: boolean;
  readonly executedAt?: number;
  /** the executing tick's price */
  readonly executedPrice?: number;
  /** why the signal did not execute (expired or suppressed) */
  readonly reason?: string;
}

/** A change in a signal's life, in the order it happened. */
export interface StrategyEvent {
  readonly kind: SignalStatus;
  readonly signal: Signal;
}
