import { toIstParts } from '../calendar/ist';
import { createRandom } from './random';

/** Parameters of the simulated NIFTY path; every field has a realistic default. */
export interface SimulatedMarketOptions {
  readonly seed: number | string;
  /** first price; default a seeded value between 24,000 and 26,000 */
  readonly startPrice?: number;
  /** annualised volatility of the index in the quiet middle of the day (default 0.09) */
  readonly volatility?: number;
  /** extra volatility at the open, decaying over ~30 min (default 1.2 → 2.2× at 09:15) */
  readonly openBoost?: number;
  /** extra volatility into the close, rising over the last ~30 min (default 0.6) */
  readonly closeBoost?: number;
  /** drift of a trending regime as a fraction of price per minute (default 0.00005 ≈ 1.2 points/min) */
  readonly trendPerMinute?: number;
  /** mean length of a regime in minutes (default 20) */
  readonly meanRegimeMinutes?: number;
  /** expected jumps per trading day (default 1.5) */
  readonly jumpsPerDay?: number;
  /** standard deviation of a jump as a fraction of price (default 0.002) */
  readonly jumpSize?: number;
  /** standard deviation of the overnight gap between trading dates (default 0.004) */
  readonly gapSize?: number;
}

/** The market regime driving the drift. */
export type Regime = 'range' | 'up' | 'down';

/** A seeded random walk of the index, advanced one step at a time. */
export interface SimulatedMarket {
  readonly price: number;
  readonly regime: Regime;
  /** advances the walk by `dtMs` ending at `time`; `newDay` applies an overnight gap first */
  step(time: number, dtMs: number, newDay?: boolean): number;
}

/** A trading year in milliseconds (252 sessions of 6 h 15 min): volatility is quoted per trading time. */
const TRADING_YEAR_MS = 252 * 375 * 60_000;
const SESSION_MINUTES = 375;
const OPEN_MINUTE = 9 * 60 + 15;
const CLOSE_MINUTE = 15 * 60 + 30;

/**
 * Creates a regime-switching geometric Brownian motion: a Markov chain switches between range (mean-reverting to
 * where the range began), up-trend and down-trend drift; volatility follows an intraday U-shape (high at the open,
 * quieter at midday, rising into the close); Poisson jumps and overnight gaps add the occasional shock.
 */
export function createSimulatedMarket(options: SimulatedMarketOptions): SimulatedMarket {
  const random = createRandom(options.seed);
  const sigma = options.volatility ?? 0.09;
  const openBoost = options.openBoost ?? 1.2;
  const closeBoost = options.closeBoost ?? 0.6;
  const trend = options.trendPerMinute ?? 0.00005;
  const meanRegimeMinutes = options.meanRegimeMinutes ?? 20;
  const jumpsPerDay = options.jumpsPerDay ?? 1.5;
  const jumpSize = options.jumpSize ?? 0.002;
  const gapSize = options.gapSize ?? 0.004;
  let price = options.startPrice ?? Math.round((24_000 + random.next() * 2_000) * 20) / 20;
  let regime: Regime = 'range';
  let anchor = price;

  function volatilityMultiplier(time: number): number {
    // Outside 09:15–15:30 (the always-open demo at night) the multiplier is simply 1.
    const minute = toIstParts(time).minuteOfDay;
    if (minute < OPEN_MINUTE || minute >= CLOSE_MINUTE) return 1;
    const sinceOpen = minute - OPEN_MINUTE;
    const toClose = CLOSE_MINUTE - minute;
    return 1 + openBoost * Math.exp(-sinceOpen / 30) + closeBoost * Math.exp(-toClose / 30);
  }

  function switchRegime(): void {
    const u = random.next();
    regime = u < 0.5 ? 'range' : u < 0.75 ? 'up' : 'down';
    anchor = price;
  }

  return {
    get price() {
      return price;
    },
    get regime() {
      return regime;
    },
    step(time, dtMs, newDay = false) {
      if (newDay) price *= Math.exp(gapSize * random.normal());
      const minutes = dtMs / 60_000;
      if (random.next() < minutes / meanRegimeMinutes) switchRegime();
      const drift = regime === 'up' ? trend : regime === 'down' ? -trend : -0.02 * Math.log(price / anchor); // per minute
      const vol = sigma * volatilityMultiplier(time) * Math.sqrt(dtMs / TRADING_YEAR_MS);
      let logReturn = drift * minutes - (vol * vol) / 2 + vol * random.normal();
      if (random.next() < (jumpsPerDay * minutes) / SESSION_MINUTES) logReturn += jumpSize * random.normal();
      price = Math.round(price * Math.exp(logReturn) * 100) / 100;
      return price;
    },
  };
}
