import type { OptionType } from '../core/types';
import { normCdf, normPdf } from './normal';

/** Inputs of the Black–Scholes(–Merton) model for a European option. */
export interface OptionInputs {
  readonly type: OptionType;
  /** underlying price */
  readonly spot: number;
  readonly strike: number;
  /** time to expiry in years; 0 or less means expired (value = intrinsic) */
  readonly time: number;
  /** annualised volatility, e.g. 0.15 */
  readonly volatility: number;
  /** continuously compounded risk-free rate, e.g. 0.065 */
  readonly rate: number;
  /** continuous dividend yield (default 0) */
  readonly dividendYield?: number;
}

/** Milliseconds in the year length used to turn a time-to-expiry into years (365 calendar days). */
export const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** Years between two epoch-ms instants (calendar-time convention, never negative). */
export function yearsBetween(from: number, to: number): number {
  return Math.max(0, to - from) / YEAR_MS;
}

function intrinsic(i: OptionInputs): number {
  return Math.max(0, i.type === 'CE' ? i.spot - i.strike : i.strike - i.spot);
}

function d1d2(i: OptionInputs): { d1: number; d2: number; sqrtT: number } {
  const q = i.dividendYield ?? 0;
  const sqrtT = Math.sqrt(i.time);
  const volSqrtT = i.volatility * sqrtT;
  const d1 =
    (Math.log(i.spot / i.strike) + (i.rate - q + (i.volatility * i.volatility) / 2) * i.time) / volSqrtT;
  return { d1, d2: d1 - volSqrtT, sqrtT };
}

function degenerate(i: OptionInputs): boolean {
  return i.time <= 0 || i.volatility <= 0;
}

/** Black–Scholes price of a European call (CE) or put (PE). */
export function blackScholesPrice(i: OptionInputs): number {
  if (i.time <= 0) return intrinsic(i);
  const q = i.dividendYield ?? 0;
  const df = Math.exp(-i.rate * i.time);
  const qf = Math.exp(-q * i.time);
  if (i.volatility <= 0) {
    // No volatility: the option is worth its discounted forward intrinsic value.
    const forward = i.spot * qf - i.strike * df;
    return Math.max(0, i.type === 'CE' ? forward : -forward);
  }
  const { d1, d2 } = d1d2(i);
  return i.type === 'CE'
    ? i.spot * qf * normCdf(d1) - i.strike * df * normCdf(d2)
    : i.strike * df * normCdf(-d2) - i.spot * qf * normCdf(-d1);
}

/** ∂price/∂spot. */
export function blackScholesDelta(i: OptionInputs): number {
  const qf = Math.exp(-(i.dividendYield ?? 0) * Math.max(0, i.time));
  if (degenerate(i)) {
    const itm = i.type === 'CE' ? i.spot > i.strike : i.spot < i.strike;
    return itm ? (i.type === 'CE' ? qf : -qf) : 0;
  }
  const { d1 } = d1d2(i);
  return i.type === 'CE' ? qf * normCdf(d1) : qf * (normCdf(d1) - 1);
}

/** ∂price/∂volatility, per 1.00 (100 percentage points) of volatility; divide by 100 for "per vol point". */
export function blackScholesVega(i: OptionInputs): number {
  if (degenerate(i)) return 0;
  const { d1, sqrtT } = d1d2(i);
  return i.spot * Math.exp(-(i.dividendYield ?? 0) * i.time) * normPdf(d1) * sqrtT;
}

/** Options of {@link impliedVolatility}. */
export interface ImpliedVolatilityOptions {
  /** price tolerance in rupees (default 1e-8) */
  readonly tolerance?: number;
  /** iteration cap for each method (default 100) */
  readonly maxIterations?: number;
}

const VOL_MIN = 1e-6;
const VOL_MAX = 10;

/**
 * The volatility at which Black–Scholes gives `price`: Newton–Raphson from a Brenner–Subrahmanyam start, falling
 * back to bisection when vega is too small or a step leaves the bracket. Returns null when the price is outside
 * the no-arbitrage bounds (below discounted intrinsic or above the upper bound) or the option has expired.
 */
export function impliedVolatility(
  price: number,
  inputs: Omit<OptionInputs, 'volatility'>,
  options: ImpliedVolatilityOptions = {},
): number | null {
  const tolerance = options.tolerance ?? 1e-8;
  const maxIterations = options.maxIterations ?? 100;
  if (inputs.time <= 0 || !Number.isFinite(price)) return null;
  const at = (volatility: number) => blackScholesPrice({ ...inputs, volatility });
  const lower = at(VOL_MIN);
  const upper = at(VOL_MAX);
  if (price < lower - tolerance || price > upper + tolerance) return null;
  if (price <= lower) return VOL_MIN;

  let lo = VOL_MIN;
  let hi = VOL_MAX;
  let vol = Math.min(VOL_MAX, Math.max(0.05, Math.sqrt((2 * Math.PI) / inputs.time) * (price / inputs.spot)));
  for (let i = 0; i < maxIterations; i += 1) {
    const diff = at(vol) - price;
    if (Math.abs(diff) < tolerance) return vol;
    // Keep a bracket so a bad Newton step can fall back to bisection.
    if (diff > 0) hi = vol;
    else lo = vol;
    const vega = blackScholesVega({ ...inputs, volatility: vol });
    const next = vol - diff / vega;
    vol = vega > 1e-10 && next > lo && next < hi ? next : (lo + hi) / 2;
  }
  // Newton did not converge within the cap: finish by bisection, which always converges on the bracket.
  for (let i = 0; i < 200; i += 1) {
    const mid = (lo + hi) / 2;
    const diff = at(mid) - price;
    if (Math.abs(diff) < tolerance || hi - lo < 1e-12) return mid;
    if (diff > 0) hi = mid;
    else lo = mid;
  }
  return (lo + hi) / 2;
}
