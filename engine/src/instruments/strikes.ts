import type { OptionType, SignalType } from '../core/types';

/** NIFTY's strike step; the fallback when no listed strikes are known. */
export const DEFAULT_STRIKE_STEP = 50;

/**
 * The at-the-money strike: the listed strike nearest the LTP. Tie rule: when the LTP lies exactly halfway between
 * two strikes the **higher** one is ATM, matching the fallback `Math.round(ltp / step) * step` (which rounds
 * halves up). With no listed strikes the fallback is used.
 */
export function atmStrike(ltp: number, listed: readonly number[] = [], step = DEFAULT_STRIKE_STEP): number {
  if (listed.length === 0) return Math.round(ltp / step) * step;
  let best = listed[0] as number;
  for (const strike of listed) {
    const d = Math.abs(strike - ltp);
    const bestD = Math.abs(best - ltp);
    if (d < bestD || (d === bestD && strike > best)) best = strike;
  }
  return best;
}

/** The contract a signal buys. */
export interface StrikeSelection {
  readonly strike: number;
  readonly optionType: OptionType;
}

/**
 * One strike in the money: CALL → CE one listed strike below ATM, PUT → PE one listed strike above ATM. Without
 * listed strikes the neighbours are ATM ∓ `step`. Throws when the listed strikes have no neighbour on that side,
 * because an unlisted strike cannot be traded.
 */
export function selectStrike(
  signalType: SignalType,
  ltp: number,
  listed: readonly number[] = [],
  step = DEFAULT_STRIKE_STEP,
): StrikeSelection {
  const atm = atmStrike(ltp, listed, step);
  if (listed.length === 0) {
    return signalType === 'CALL'
      ? { strike: atm - step, optionType: 'CE' }
      : { strike: atm + step, optionType: 'PE' };
  }
  const sorted = [...new Set(listed)].sort((a, b) => a - b);
  const i = sorted.indexOf(atm);
  const strike = signalType === 'CALL' ? sorted[i - 1] : sorted[i + 1];
  if (strike === undefined) {
    throw new RangeError(`no listed strike ${signalType === 'CALL' ? 'below' : 'above'} ATM ${atm}`);
  }
  return { strike, optionType: signalType === 'CALL' ? 'CE' : 'PE' };
}

/** How {@link roundToTick} rounds: to the nearest tick, or always up / down (e.g. protective limit prices). */
export type TickRounding = 'nearest' | 'up' | 'down';

/** Snaps a price to a multiple of `tick` (₹0.05 for options) without floating-point residue. */
export function roundToTick(price: number, tick: number, mode: TickRounding = 'nearest'): number {
  if (!(tick > 0)) throw new RangeError(`tick must be positive, got ${tick}`);
  // Work in whole ticks; the epsilon keeps 1.15 / 0.05 = 22.999999999999996 from rounding down to 22.
  const ticks = price / tick;
  const EPS = 1e-9;
  const n =
    mode === 'up'
      ? Math.ceil(ticks - EPS)
      : mode === 'down'
        ? Math.floor(ticks + EPS)
        : Math.round(ticks + EPS);
  // A tick that divides a rupee (0.05 → 20 steps): n / steps is already the double nearest the decimal price,
  // the same one formatting would give, without the formatting (quotes round three times per tick).
  const steps = Math.round(1 / tick);
  if (steps >= 1 && Math.abs(steps * tick - 1) < 1e-12) return n / steps;
  const decimals = Math.max(0, -Math.floor(Math.log10(tick)) + 2);
  return Number((n * tick).toFixed(decimals));
}
