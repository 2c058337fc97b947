import { istMidnightOf, parseHhMm } from '../calendar/ist';

/**
 * Per-position risk as a pure state machine: the same code decides exits live and in backtests. State is plain
 * data (JSON-serialisable), so a restarted server resumes each open position with its stops where they were.
 * Rules: ARCHITECTURE.md "Strategy" (exits); the dynamic target mode is described in ./README.md.
 */

/** Why a position is closed. */
export type ExitReason =
  'STOP_LOSS' | 'TRAILING_STOP' | 'TARGET' | 'SQUARE_OFF' | 'DAILY_LOSS' | 'FLATTEN_ALL' | 'MANUAL';

/** Exit reasons decided outside the price rules (account or operator). */
export type ForcedExitReason = Extract<ExitReason, 'DAILY_LOSS' | 'FLATTEN_ALL' | 'MANUAL' | 'SQUARE_OFF'>;

export type TargetMode = 'fixed' | 'dynamic';

/** An exit decision: close at (about) `price`, the premium that triggered it. */
export interface PositionExit {
  readonly reason: ExitReason;
  readonly price: number;
  readonly time: number;
}

/** Parameters of one position's risk; points are option premium points (rupees per unit). */
export interface PositionRiskConfig {
  readonly entryPrice: number;
  /** stop distance below entry; also the gain that moves the stop to cost and the trailing distance */
  readonly stopLoss: number;
  /** target distance above entry */
  readonly target: number;
  /** break-even then trail the high-water mark (default true) */
  readonly trailing?: boolean;
  readonly targetMode?: TargetMode;
  /**
   * When every position closes: an instant (epoch ms), or an IST wall-clock time `HH:MM` on the IST date of
   * `entryTime` (or of the first price seen when `entryTime` is absent). Default `15:15`.
   */
  readonly squareOffAt?: number | string;
  readonly entryTime?: number;
  /** dynamic mode: on reaching the target the stop rises to at least target − lockDistance (default stopLoss / 2) */
  readonly lockDistance?: number;
  /** dynamic mode: how far the target moves up each time it is reached (default stopLoss / 2) */
  readonly targetStep?: number;
}

/** The state of one position's risk. Plain data. */
export interface PositionRiskState {
  readonly entryPrice: number;
  readonly stopLoss: number;
  readonly target: number;
  readonly trailing: boolean;
  readonly targetMode: TargetMode;
  readonly lockDistance: number;
  readonly targetStep: number;
  /** `HH:MM` IST when the square-off instant is still to be resolved from the first price's date */
  readonly squareOffTime?: string;
  /** epoch ms; null until resolved */
  readonly squareOffAt: number | null;
  readonly initialStop: number;
  /** the current stop; a ratchet, it never falls */
  readonly stopPrice: number;
  readonly targetPrice: number;
  readonly highWater: number;
  /** how many times a dynamic target was reached and extended */
  readonly targetHits: number;
  readonly lastPrice: number;
  /** set once: a closed position ignores further prices */
  readonly exit?: PositionExit;
}

/** What `onPrice` returns: the next state, and the exit when this price closes the position. */
export interface PositionRiskStep {
  readonly state: PositionRiskState;
  readonly exit?: PositionExit;
}

/** The square-off time when none is configured (ARCHITECTURE.md). */
export const DEFAULT_SQUARE_OFF = '15:15';

/** The epoch ms of IST wall-clock `HH:MM` on the IST date containing `time`. */
export function istTimeOnDateOf(time: number, hhmm: string): number {
  return istMidnightOf(time) + parseHhMm(hhmm) * 60_000;
}

function round(price: number): number {
  // Premium arithmetic on tick prices carries binary noise (100.05 − 20); keep states clean and comparable.
  return Math.round(price * 1e6) / 1e6;
}

/** Creates the risk state of a position just entered at `entryPrice`. */
export function createPositionRisk(config: PositionRiskConfig): PositionRiskState {
  const { entryPrice, stopLoss, target } = config;
  if (!(entryPrice > 0) || !(stopLoss > 0) || !(target > 0)) {
    throw new RangeError('entryPrice, stopLoss and target must be positive');
  }
  const lockDistance = config.lockDistance ?? stopLoss / 2;
  const targetStep = config.targetStep ?? stopLoss / 2;
  if (!(lockDistance >= 0) || !(targetStep > 0))
    throw new RangeError('lockDistance must be ≥ 0 and targetStep > 0');
  const squareOff = config.squareOffAt ?? DEFAULT_SQUARE_OFF;
  let squareOffAt: number | null = null;
  let squareOffTime: string | undefined;
  if (typeof squareOff === 'number') squareOffAt = squareOff;
  else if (config.entryTime !== undefined) squareOffAt = istTimeOnDateOf(config.entryTime, squareOff);
  else {
    istTimeOnDateOf(0, squareOff); // throws on a malformed time now, not at the first price
    squareOffTime = squareOff;
  }
  const initialStop = round(entryPrice - stopLoss);
  return {
    entryPrice,
    stopLoss,
    target,
    trailing: config.trailing ?? true,
    targetMode: config.targetMode ?? 'fixed',
    lockDistance,
    targetStep,
    ...(squareOffTime === undefined ? {} : { squareOffTime }),
    squareOffAt,
    initialStop,
    stopPrice: initialStop,
    targetPrice: round(entryPrice + target),
    highWater: entryPrice,
    targetHits: 0,
    lastPrice: entryPrice,
  };
}

function close(state: PositionRiskState, reason: ExitReason, price: number, time: number): PositionRiskStep {
  const exit: PositionExit = { reason, price, time };
  return { state: { ...state, lastPrice: price, exit }, exit };
}

/** A position's risk state as its owner holds it: updated in place by {@link applyPrice}, copied to publish. */
export type MutablePositionRiskState = { -readonly [K in keyof PositionRiskState]: PositionRiskState[K] };

/** A copy of a risk state as plain data: what is persisted or published, so later prices never change it. */
export function copyPositionRisk(state: PositionRiskState): PositionRiskState {
  const { squareOffTime, exit, ...fields } = state;
  return {
    ...fields,
    ...(squareOffTime === undefined ? {} : { squareOffTime }),
    ...(exit === undefined ? {} : { exit }),
  };
}

/**
 * The owner's copy of a risk state, which {@link applyPrice} updates in place. A class, so every owned state has
 * one shape with its fields in the object itself: the per-quote stores write numbers in place instead of boxing
 * them (what a spread copy's out-of-object fields did).
 */
class OwnedPositionRisk implements MutablePositionRiskState {
  entryPrice: number;
  stopLoss: number;
  target: number;
  trailing: boolean;
  targetMode: TargetMode;
  lockDistance: number;
  targetStep: number;
  squareOffTime: string | undefined;
  squareOffAt: number | null;
  initialStop: number;
  stopPrice: number;
  targetPrice: number;
  highWater: number;
  targetHits: number;
  lastPrice: number;
  exit: PositionExit | undefined;

  constructor(state: PositionRiskState) {
    this.entryPrice = state.entryPrice;
    this.stopLoss = state.stopLoss;
    this.target = state.target;
    this.trailing = state.trailing;
    this.targetMode = state.targetMode;
    this.lockDistance = state.lockDistance;
    this.targetStep = state.targetStep;
    this.squareOffTime = state.squareOffTime;
    this.squareOffAt = state.squareOffAt;
    this.initialStop = state.initialStop;
    this.stopPrice = state.stopPrice;
    this.targetPrice = state.targetPrice;
    this.highWater = state.highWater;
    this.targetHits = state.targetHits;
    this.lastPrice = state.lastPrice;
    this.exit = state.exit;
  }
}

/** A copy of `state` for its owner to update in place with {@link applyPrice}; publish it with `copyPositionRisk`. */
export function ownPositionRisk(state: PositionRiskState): MutablePositionRiskState {
  return new OwnedPositionRisk(state);
}

/**
 * Feeds one premium observation at `time`, updating `state` in place (nothing is allocated unless the position
 * exits): the hot path of every quote of every open position. In order: square-off time; high-water mark and the
 * ratchet (once the premium has gained `stopLoss`, the stop is max(stop, high − stopLoss): cost first, then
 * trailing); the dynamic target's lock and extension; then the stop, then the fixed target. Returns the exit when
 * this price closes the position; a position already exited is unchanged.
 */
export function applyPrice(
  state: MutablePositionRiskState,
  premium: number,
  time: number,
): PositionExit | undefined {
  if (state.exit !== undefined) return undefined;
  let squareOffAt = state.squareOffAt;
  if (squareOffAt === null) {
    squareOffAt = istTimeOnDateOf(time, state.squareOffTime ?? DEFAULT_SQUARE_OFF);
    state.squareOffAt = squareOffAt;
  }
  if (time >= squareOffAt) return closeInPlace(state, 'SQUARE_OFF', premium, time);

  const highWater = Math.max(state.highWater, premium);
  let stopPrice = state.stopPrice;
  if (state.trailing && highWater >= state.entryPrice + state.stopLoss) {
    stopPrice = Math.max(stopPrice, round(highWater - state.stopLoss));
  }
  if (state.targetMode === 'dynamic') {
    let targetPrice = state.targetPrice;
    // A gap through several steps extends the target as many times as the move covers.
    while (premium >= targetPrice) {
      stopPrice = Math.max(stopPrice, round(targetPrice - state.lockDistance));
      targetPrice = round(targetPrice + state.targetStep);
      state.targetHits += 1;
    }
    state.targetPrice = targetPrice;
  }
  state.highWater = highWater;
  state.stopPrice = stopPrice;
  state.lastPrice = premium;
  if (premium <= stopPrice)
    return closeInPlace(state, stopPrice > state.initialStop ? 'TRAILING_STOP' : 'STOP_LOSS', premium, time);
  if (state.targetMode === 'fixed' && premium >= state.targetPrice)
    return closeInPlace(state, 'TARGET', premium, time);
  return undefined;
}

function closeInPlace(
  state: MutablePositionRiskState,
  reason: ExitReason,
  price: number,
  time: number,
): PositionExit {
  const exit: PositionExit = { reason, price, time };
  state.lastPrice = price;
  state.exit = exit;
  return exit;
}

/**
 * Feeds one premium observation at `time` and returns the next state as a new object ({@link applyPrice} on a
 * copy): for callers that keep states as values. A position already exited is unchanged.
 */
export function onPrice(state: PositionRiskState, premium: number, time: number): PositionRiskStep {
  if (state.exit !== undefined) return { state };
  const next = ownPositionRisk(state);
  const exit = applyPrice(next, premium, time);
  return exit === undefined ? { state: copyPositionRisk(next) } : { state: copyPositionRisk(next), exit };
}

/** Closes a position for a reason outside the price rules (daily loss, flatten-all, manual, square-off). */
export function forceExit(
  state: PositionRiskState,
  reason: ForcedExitReason,
  premium: number,
  time: number,
): PositionRiskStep {
  if (state.exit !== undefined) return { state };
  return close(state, reason, premium, time);
}

/**
 * {@link forceExit} on the owner's state, in place: the state object stays the one its holders reference. Returns
 * the exit, or undefined when the position had exited already.
 */
export function forceExitInPlace(
  state: MutablePositionRiskState,
  reason: ForcedExitReason,
  premium: number,
  time: number,
): PositionExit | undefined {
  if (state.exit !== undefined) return undefined;
  return closeInPlace(state, reason, premium, time);
}

/** Unrealised P&L in rupees of `quantity` units at `premium` (long options only: the product buys). */
export function unrealisedPnl(state: PositionRiskState, premium: number, quantity: number): number {
  return round((premium - state.entryPrice) * quantity);
}
