import type { Quote } from '../core/types';
import { istDateTime } from '../calendar/ist';
import { roundToTick } from '../instruments/strikes';
import { parseOptionSymbol } from '../instruments/optionSymbol';
import { blackScholesPrice, yearsBetween } from '../pricing/blackScholes';

/** Options of {@link createSyntheticQuoter}. */
export interface SyntheticQuoteOptions {
  /** risk-free rate (default 0.065, near the Indian 91-day T-bill yield) */
  readonly rate?: number;
  /** at-the-money implied volatility (default 0.14, a typical India VIX level) */
  readonly atmVolatility?: number;
  /** option tick size (default 0.05) */
  readonly tickSize?: number;
  /** half the bid–ask spread as a fraction of the premium, at least one tick (default 0.0025) */
  readonly halfSpread?: number;
  /** when a contract expiring on a date stops trading (default 15:30 IST that day) */
  readonly expiryInstant?: (expiryDate: string) => number;
}

/** Prices canonical option symbols from an underlying price. */
export interface SyntheticQuoter {
  /** a quote for `symbol` at `time` given the underlying `spot`, or null when the symbol is not canonical */
  quote(symbol: string, spot: number, time: number): Quote | null;
}

/**
 * Builds option quotes from Black–Scholes: implied volatility follows a simple skew/smile in log-moneyness
 * (out-of-the-money puts dearer, as on NIFTY), time runs to the contract's expiry on a 365-day basis, and bid/ask sit
 * a small spread around the theoretical premium, snapped to the tick. Used by the simulated and replay feeds.
 */
export function createSyntheticQuoter(options: SyntheticQuoteOptions = {}): SyntheticQuoter {
  const rate = options.rate ?? 0.065;
  const atm = options.atmVolatility ?? 0.14;
  const tick = options.tickSize ?? 0.05;
  const halfSpread = options.halfSpread ?? 0.0025;
  const expiryInstant = options.expiryInstant ?? ((date: string) => istDateTime(date, '15:30'));
  // A feed quotes the same few symbols on every tick: parse each symbol and resolve its expiry instant once.
  const contracts = new Map<string, { strike: number; optionType: 'CE' | 'PE'; expiryAt: number } | null>();
  const contractOf = (symbol: string) => {
    let contract = contracts.get(symbol);
    if (contract === undefined) {
      const parts = parseOptionSymbol(symbol);
      contract = parts
        ? { strike: parts.strike, optionType: parts.optionType, expiryAt: expiryInstant(parts.expiry) }
        : null;
      if (contracts.size > 1_000) contracts.clear();
      contracts.set(symbol, contract);
    }
    return contract;
  };
  return {
    quote(symbol, spot, time) {
      const parts = contractOf(symbol);
      if (!parts) return null;
      const m = Math.log(parts.strike / spot);
      const volatility = Math.min(3 * atm, Math.max(0.5 * atm, atm * (1 - 1.5 * m + 8 * m * m)));
      const premium = blackScholesPrice({
        type: parts.optionType,
        spot,
        strike: parts.strike,
        time: yearsBetween(time, parts.expiryAt),
        volatility,
        rate,
      });
      const half = Math.max(tick, premium * halfSpread);
      const bid = Math.max(0, roundToTick(premium - half, tick, 'down'));
      const ask = Math.max(tick, roundToTick(premium + half, tick, 'up'));
      const ltp = Math.min(ask, Math.max(bid, tick, roundToTick(premium, tick)));
      return { symbol, time, bid, ask, ltp };
    },
  };
}
