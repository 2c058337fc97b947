import type { SessionFacts } from '../calendar/sessionFacts';
import type { StrategyParams } from './params';

/** The strategy's display name. */
export const STRATEGY_NAME = 'Consecutive-candle breakout';

/** Options of {@link describeStrategy}. */
export interface DescribeStrategyOptions {
  /** the trading day's times (`sessionFacts`), with the square-off in force */
  readonly session: SessionFacts;
  /** the demo calendar (`SIM_SESSION=always`) is in use: every moment is in session and in the entry window */
  readonly alwaysOpen?: boolean;
}

const pts = (value: number): string => `${value} point${value === 1 ? '' : 's'}`;

/**
 * The live rules in plain English, one bullet per rule, with the current parameters filled in. This is the
 * white-box text every subscriber sees ("How the strategy works"); it must change whenever the rules change.
 */
export function describeStrategy(params: StrategyParams, options: DescribeStrategyOptions): string[] {
  const { marketOpen, marketClose, entryStart, entryEnd, squareOff } = options.session;
  const n = params.consecutiveCandles;
  const candle = `${params.interval}-minute candle`;
  // Singular and plural read differently ("is bullish, closing" vs "are all bullish, each closing").
  const run = n === 1 ? `the last ${candle}` : `the last ${n} ${candle}s`;
  const are = n === 1 ? 'is' : 'are all';
  const each = n === 1 ? 'closing' : 'each closing';
  const last = n === 1 ? `the candle's` : `the last candle's`;
  const rules = [
    options.alwaysOpen
      ? `The bot watches the NIFTY 50 index on ${candle}s aligned to ${marketOpen} IST. Demo mode: every moment counts as market hours.`
      : `The bot watches the NIFTY 50 index on ${candle}s that start at the ${marketOpen} IST session open. Only prices between ${marketOpen} and ${marketClose} IST on trading days count.`,
    `CALL setup: ${run} of the same trading day ${are} bullish, ${each} at least ${pts(params.minMovement)} above its open. An interval with no price update does not break the run; a new trading day starts a new run.`,
    `CALL entry: the trigger is ${last} high + ${pts(params.entryOffset)}. The CALL executes at the first price at or above the trigger during the next ${candle}; if none comes, the signal expires.`,
    `PUT setup: ${run} of the same trading day ${are} bearish, ${each} at least ${pts(params.minMovement)} below its open.`,
    `PUT entry: the trigger is ${last} low − ${pts(params.entryOffset)}. The PUT executes at the first price at or below the trigger during the next ${candle}; if none comes, the signal expires.`,
    `The rule is checked again at every candle close, so a longer run gives a new signal for each extra qualifying candle.`,
    options.alwaysOpen
      ? `Demo mode: signals can form at any time of day.`
      : `Signals form only when the setup candle closes after ${entryStart} and at or before ${entryEnd} IST.`,
    `On a CALL the bot buys the current weekly expiry's call (CE) one strike below the at-the-money strike; on a PUT, the put (PE) one strike above it.`,
    `Exit: stop loss ${pts(params.stopLoss)} of premium below the entry price; target ${pts(params.target)} above it (or your own target setting). Once the premium has gained ${pts(params.stopLoss)}, the stop moves to the entry price and then trails the highest premium by ${pts(params.stopLoss)}; it only ever rises.`,
    options.alwaysOpen
      ? `Reaching your maximum daily loss closes your position and stops your trading until the next session.`
      : `All open positions are closed at ${squareOff} IST, and reaching your maximum daily loss closes your position and stops your trading until the next session.`,
  ];
  if (!params.callEnabled) rules.push('CALL signals are currently switched off.');
  if (!params.putEnabled) rules.push('PUT signals are currently switched off.');
  if (!params.tradingEnabled) {
    rules.push('Trading is paused: setups are still recorded for review, but no orders are placed.');
  }
  return rules;
}
