import type { OptionType } from '../core/types';
import type { ExpiryCalendar } from '../calendar/expiry';
import { formatOptionSymbol, parseOptionSymbol } from './optionSymbol';

/** One listed option contract. */
export interface OptionContract {
  /** canonical symbol, `NIFTY{DDMMMYY}{strike}{CE|PE}` */
  readonly symbol: string;
  readonly underlying: string;
  /** expiry date, `YYYY-MM-DD` (IST) */
  readonly expiry: string;
  readonly strike: number;
  readonly optionType: OptionType;
  readonly lotSize: number;
  readonly tickSize: number;
  /** broker type (`zerodha`, `upstox`, …) → that broker's instrument token / symbol; filled by broker adapters */
  readonly brokerTokens: Readonly<Record<string, string>>;
}

/** Lists tradable option contracts. Broker adapters build one from their instrument dump; the sim generates one. */
export interface InstrumentMaster {
  /** listed expiry dates of an underlying, ascending */
  expiries(underlying: string): readonly string[];
  /** every contract of an underlying and expiry, sorted by strike then CE before PE */
  contracts(underlying: string, expiry: string): readonly OptionContract[];
  /** listed strikes of an underlying and expiry, ascending */
  strikes(underlying: string, expiry: string): readonly number[];
  /** the contract with a canonical symbol, if listed */
  contract(symbol: string): OptionContract | undefined;
}

/** Builds an instrument master over a fixed list of contracts (e.g. parsed from a broker's instrument file). */
export function createInMemoryInstrumentMaster(contracts: readonly OptionContract[]): InstrumentMaster {
  const bySymbol = new Map<string, OptionContract>();
  const byKey = new Map<string, OptionContract[]>();
  const expiriesOf = new Map<string, Set<string>>();
  for (const c of contracts) {
    bySymbol.set(c.symbol, c);
    const key = `${c.underlying}|${c.expiry}`;
    const list = byKey.get(key) ?? [];
    list.push(c);
    byKey.set(key, list);
    const set = expiriesOf.get(c.underlying) ?? new Set<string>();
    set.add(c.expiry);
    expiriesOf.set(c.underlying, set);
  }
  for (const list of byKey.values()) {
    list.sort((a, b) => a.strike - b.strike || a.optionType.localeCompare(b.optionType));
  }
  return {
    expiries: (underlying) => [...(expiriesOf.get(underlying) ?? [])].sort(),
    contracts: (underlying, expiry) => byKey.get(`${underlying}|${expiry}`) ?? [],
    strikes: (underlying, expiry) => [
      ...new Set((byKey.get(`${underlying}|${expiry}`) ?? []).map((c) => c.strike)),
    ],
    contract: (symbol) => bySymbol.get(symbol),
  };
}

/** Options of {@link generateInstrumentMaster}. */
export interface GenerateInstrumentMasterOptions {
  readonly underlying: string;
  readonly expiries: ExpiryCalendar;
  /** IST date (`YYYY-MM-DD`) from which expiries are listed */
  readonly fromDate: string;
  /** strikes are centred on this index level */
  readonly aroundPrice: number;
  /** how many weekly expiries to list (default 4) */
  readonly weeks?: number;
  /** strikes each side of the centre (default 40, i.e. ±2,000 points for NIFTY) */
  readonly strikesEachSide?: number;
}

/**
 * Generates a master from the calendar for simulation and paper trading: the next weekly expiries and, for each,
 * CE and PE strikes every `strikeStep` around a price. Lot and tick size come from the dated contract specs.
 */
export function generateInstrumentMaster(options: GenerateInstrumentMasterOptions): InstrumentMaster {
  const { underlying, expiries, fromDate, aroundPrice } = options;
  const weeks = options.weeks ?? 4;
  const each = options.strikesEachSide ?? 40;
  const step = expiries.strikeStep;
  const centre = Math.round(aroundPrice / step) * step;
  const contracts: OptionContract[] = [];
  for (const expiry of expiries.weeklyExpiries(fromDate, weeks)) {
    const lotSize = expiries.lotSize(expiry);
    for (let k = -each; k <= each; k += 1) {
      const strike = centre + k * step;
      if (strike <= 0) continue;
      for (const optionType of ['CE', 'PE'] as const) {
        contracts.push({
          symbol: formatOptionSymbol({ underlying, expiry, strike, optionType }),
          underlying,
          expiry,
          strike,
          optionType,
          lotSize,
          tickSize: expiries.tickSize,
          brokerTokens: {},
        });
      }
    }
  }
  return createInMemoryInstrumentMaster(contracts);
}

/** Describes a canonical symbol as a contract using the dated specs, for symbols outside any master (sim quotes). */
export function contractFromSymbol(symbol: string, expiries: ExpiryCalendar): OptionContract | undefined {
  const parts = parseOptionSymbol(symbol);
  if (!parts) return undefined;
  return {
    ...parts,
    symbol,
    lotSize: expiries.lotSize(parts.expiry),
    tickSize: expiries.tickSize,
    brokerTokens: {},
  };
}

/**
 * The contract for a canonical symbol: the instrument master's entry when it lists one (its lot and tick size win,
 * as the broker's master is the exchange's current word), otherwise one described from the dated contract specs.
 */
export function resolveContract(
  symbol: string,
  sources: { readonly master?: InstrumentMaster; readonly expiries: ExpiryCalendar },
): OptionContract | undefined {
  return sources.master?.contract(symbol) ?? contractFromSymbol(symbol, sources.expiries);
}
