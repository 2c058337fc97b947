import type { OptionType } from '../core/types';
import { roundToTick } from '../instruments/strikes';
import { blackScholesPrice, YEAR_MS } from '../pricing/blackScholes';

/**
 * How the backtest turns the index into option premiums and fills. There is no option data in a replay CSV, so
 * every premium is Black–Scholes at one flat implied volatility (docs/backtesting.md states the assumptions).
 */
export interface PremiumModelOptions {
  /** annualised implied volatility, e.g. 0.14; flat across strikes and time (no smile, no term structure) */
  readonly iv: number;
  /** continuously compounded risk-free rate (default 0.065, near the 91-day T-bill yield) */
  readonly riskFreeRate?: number;
  /** option tick size in rupees (default 0.05) */
  readonly tickSize?: number;
  /** half the bid–ask spread as a fraction of the premium, at least one tick (default 0.0025, as the simulated feed) */
  readonly halfSpread?: number;
  /** adverse slippage in ticks on every fill, beyond the spread (default 1) */
  readonly slippageTicks?: number;
}

/** The defaults of {@link PremiumModelOptions} other than the IV. */
export const DEFAULT_PREMIUM_MODEL = {
  riskFreeRate: 0.065,
  tickSize: 0.05,
  halfSpread: 0.0025,
  slippageTicks: 1,
} as const;

/** Model premiums (the option's LTP) and the prices a buy or a sell fills at. */
export interface PremiumModel {
  readonly tickSize: number;
  /** the model LTP: Black–Scholes snapped to the tick, never below one tick; `msToExpiry` ≤ 0 gives intrinsic */
  ltp(type: OptionType, spot: number, strike: number, msToExpiry: number): number;
  /** a market buy at `ltp`: the ask (ltp + half-spread, rounded up) plus slippage */
  buyFill(ltp: number): number;
  /** a market sell at `ltp`: the bid (ltp − half-spread, rounded down) minus slippage, never below one tick */
  sellFill(ltp: number): number;
}

/** Builds the premium model of a backtest. */
export function createPremiumModel(options: PremiumModelOptions): PremiumModel {
  const volatility = options.iv;
  if (!(volatility > 0) || volatility > 5)
    throw new RangeError(`iv must be > 0 and ≤ 5 (500%), got ${volatility}`);
  const rate = options.riskFreeRate ?? DEFAULT_PREMIUM_MODEL.riskFreeRate;
  const tick = options.tickSize ?? DEFAULT_PREMIUM_MODEL.tickSize;
  const halfSpread = options.halfSpread ?? DEFAULT_PREMIUM_MODEL.halfSpread;
  const slip = (options.slippageTicks ?? DEFAULT_PREMIUM_MODEL.slippageTicks) * tick;
  if (!(halfSpread >= 0) || !(slip >= 0)) throw new RangeError('halfSpread and slippageTicks must be ≥ 0');
  // Snapping the per-tick LTP is on the backtest's hot path; when 1/tick is a whole number (0.05 → 20) a rounded
  // multiple divided by it is the same double that roundToTick's decimal formatting produces, at a fraction of the cost.
  const perRupee = 1 / tick;
  const exactSteps = Math.abs(perRupee - Math.round(perRupee)) < 1e-9 ? Math.round(perRupee) : 0;
  const snap =
    exactSteps > 0
      ? (price: number) => Math.round(price * exactSteps + 1e-9) / exactSteps
      : (price: number) => roundToTick(price, tick);
  return {
    tickSize: tick,
    ltp(type, spot, strike, msToExpiry) {
      const premium = blackScholesPrice({
        type,
        spot,
        strike,
        time: msToExpiry > 0 ? msToExpiry / YEAR_MS : 0,
        volatility,
        rate,
      });
      const snapped = snap(premium);
      return snapped < tick ? tick : snapped;
    },
    buyFill(ltp) {
      const half = Math.max(tick, ltp * halfSpread);
      return roundToTick(ltp + (halfSpread > 0 ? half : 0) + slip, tick, 'up');
    },
    sellFill(ltp) {
      const half = Math.max(tick, ltp * halfSpread);
      return Math.max(tick, roundToTick(ltp - (halfSpread > 0 ? half : 0) - slip, tick, 'down'));
    },
  };
}
