import { INTERVALS } from '../core/types';
import type { IntervalMinutes } from '../core/types';

/** The live parameters of the consecutive-candle breakout (ARCHITECTURE.md "Strategy"). */
export interface StrategyParams {
  /** N: how many consecutive qualifying candles make a setup */
  readonly consecutiveCandles: number;
  /** M: minimum body of each setup candle, index points */
  readonly minMovement: number;
  /** E: trigger distance beyond the setup candle's high (CALL) or low (PUT), index points */
  readonly entryOffset: number;
  /** stop distance below the option entry premium, premium points (used by the risk manager) */
  readonly stopLoss: number;
  /** global target above the option entry premium, premium points (used by the risk manager) */
  readonly target: number;
  readonly callEnabled: boolean;
  readonly putEnabled: boolean;
  /** master switch: when false, setups are still recorded (with a reason) but never armed */
  readonly tradingEnabled: boolean;
  /** candle interval the strategy runs on */
  readonly interval: IntervalMinutes;
}

/** Defaults when a setting is absent: 3 candles, 5 pts, 2 pts, SL 20, target 40, both sides on, 1-minute candles. */
export const DEFAULT_STRATEGY_PARAMS: StrategyParams = Object.freeze({
  consecutiveCandles: 3,
  minMovement: 5,
  entryOffset: 2,
  stopLoss: 20,
  target: 40,
  callEnabled: true,
  putEnabled: true,
  tradingEnabled: true,
  interval: 1,
});

/** Upper bound of `consecutiveCandles`; the strategy keeps at most this many candles of history. */
export const MAX_CONSECUTIVE_CANDLES = 20;

/**
 * The `admin_controls.settingName` that stores each parameter. All match the field names except the interval,
 * stored as `candleInterval` (the plain word `interval` is also read, for hand-written maps).
 */
export const STRATEGY_SETTING_NAMES: Readonly<Record<keyof StrategyParams, string>> = Object.freeze({
  consecutiveCandles: 'consecutiveCandles',
  minMovement: 'minMovement',
  entryOffset: 'entryOffset',
  stopLoss: 'stopLoss',
  target: 'target',
  callEnabled: 'callEnabled',
  putEnabled: 'putEnabled',
  tradingEnabled: 'tradingEnabled',
  interval: 'candleInterval',
});

/** One invalid setting: its admin-control name and what is wrong with it. */
export interface StrategyParamsIssue {
  readonly setting: string;
  readonly message: string;
}

/** Thrown by {@link parseStrategyParams}; `issues` lists every invalid setting, the message names them all. */
export class StrategyParamsError extends Error {
  override readonly name = 'StrategyParamsError';

  constructor(readonly issues: readonly StrategyParamsIssue[]) {
    super(issues.map((i) => i.message).join('; '));
  }
}

const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

type Reader<T> = (setting: string, raw: string) => T | string;

const number =
  (min: number, max: number, options: { integer?: boolean; exclusiveMin?: boolean } = {}): Reader<number> =>
  (setting, raw) => {
    const what = options.integer ? 'a whole number' : 'a number';
    const range = options.exclusiveMin ? `greater than ${min} and at most ${max}` : `from ${min} to ${max}`;
    const expected = `${setting} must be ${what} ${range}, got "${raw}"`;
    if (!DECIMAL_RE.test(raw)) return expected;
    const value = Number(raw);
    if (options.integer && !Number.isInteger(value)) return expected;
    if (value > max || value < min || (options.exclusiveMin && value === min)) return expected;
    return value;
  };

const boolean: Reader<boolean> = (setting, raw) => {
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  return `${setting} must be "true" or "false", got "${raw}"`;
};

const interval: Reader<IntervalMinutes> = (setting, raw) => {
  const minutes = Number(raw.toLowerCase().replace(/m$/, ''));
  const found = INTERVALS.find((i) => i === minutes);
  return found ?? `${setting} must be one of ${INTERVALS.join(', ')} (minutes), got "${raw}"`;
};

const READERS: { readonly [K in keyof StrategyParams]: Reader<StrategyParams[K]> } = {
  consecutiveCandles: number(1, MAX_CONSECUTIVE_CANDLES, { integer: true }),
  minMovement: number(0, 1000),
  entryOffset: number(0, 1000),
  stopLoss: number(0, 10_000, { exclusiveMin: true }),
  target: number(0, 10_000, { exclusiveMin: true }),
  callEnabled: boolean,
  putEnabled: boolean,
  tradingEnabled: boolean,
  interval,
};

/**
 * Parses the admin-controls map (`settingName → value`, strings as stored) into validated parameters. Absent or
 * blank settings take the value from `base` (the defaults unless given); unrelated settings are ignored. Throws a
 * {@link StrategyParamsError} naming every invalid setting.
 */
export function parseStrategyParams(
  settings: Readonly<Record<string, string | undefined>>,
  base: StrategyParams = DEFAULT_STRATEGY_PARAMS,
): StrategyParams {
  const issues: StrategyParamsIssue[] = [];
  const read = <K extends keyof StrategyParams>(key: K): StrategyParams[K] => {
    const setting = STRATEGY_SETTING_NAMES[key];
    const stored = settings[setting] ?? (key === 'interval' ? settings['interval'] : undefined);
    const raw = stored?.trim();
    if (raw === undefined || raw === '') return base[key];
    const value = READERS[key](setting, raw);
    if (typeof value !== 'string') return value;
    issues.push({ setting, message: value });
    return base[key];
  };
  const params: StrategyParams = {
    consecutiveCandles: read('consecutiveCandles'),
    minMovement: read('minMovement'),
    entryOffset: read('entryOffset'),
    stopLoss: read('stopLoss'),
    target: read('target'),
    callEnabled: read('callEnabled'),
    putEnabled: read('putEnabled'),
    tradingEnabled: read('tradingEnabled'),
    interval: read('interval'),
  };
  if (issues.length > 0) throw new StrategyParamsError(issues);
  return Object.freeze(params);
}
