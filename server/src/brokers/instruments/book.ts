// The instrument master as one broker module shares it across all its accounts: loaded on first use and again on
// the first use of a new IST day (brokers publish a new master each morning), one download at a time. Orders look
// up a canonical symbol's instrument; positions and order rows map the broker's own handle back to it.
import { BrokerError, formatOptionSymbol, istDate } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';

/** The engine's canonical symbol of a broker's NIFTY option (`NIFTY{DDMMMYY}{strike}{CE|PE}`). */
export function canonicalSymbolOf(instrument: BrokerInstrument): string {
  return formatOptionSymbol({
    underlying: 'NIFTY',
    expiry: instrument.expiry,
    strike: instrument.strike,
    optionType: instrument.optionType,
  });
}

export class InstrumentBook {
  private byCanonical = new Map<string, BrokerInstrument>();
  /** the broker's handle (trading symbol, or token) → canonical symbol */
  private canonicalByHandle = new Map<string, string>();
  private loadedDay: string | undefined;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly download: () => Promise<readonly BrokerInstrument[]>,
    private readonly now: () => number,
    /** which of the instrument's handles the broker's positions and orders name it by */
    private readonly handle: 'tradingSymbol' | 'token' = 'tradingSymbol',
  ) {}

  /** The broker's instrument of a canonical symbol (downloads the master when missing or from another day). */
  async instrumentOf(canonical: string): Promise<BrokerInstrument | undefined> {
    await this.ensureFresh();
    return this.byCanonical.get(canonical);
  }

  /**
   * The instrument an order names, for adapters: a master that cannot be had, or a symbol it does not list, is a
   * `rejected` BrokerError — nothing was sent, so it is a refusal (safe to retry), never an unknown outcome.
   */
  async forOrder(canonical: string, broker: string, masterName: string): Promise<BrokerInstrument> {
    let instrument: BrokerInstrument | undefined;
    try {
      instrument = await this.instrumentOf(canonical);
    } catch {
      throw new BrokerError('rejected', 'NO_INSTRUMENT_MASTER', `${masterName} unavailable`, broker);
    }
    if (instrument === undefined) {
      throw new BrokerError('rejected', 'UNKNOWN_INSTRUMENT', `${canonical} is not in ${masterName}`, broker);
    }
    return instrument;
  }

  /** The canonical symbol of the broker's handle (trading symbol or token), when the loaded master lists it. */
  canonicalOf(handle: string): string | undefined {
    return this.canonicalByHandle.get(handle);
  }

  async ensureFresh(): Promise<void> {
    const today = istDate(this.now());
    if (this.loadedDay === today) return;
    this.loading ??= this.download().then(
      (instruments) => {
        this.byCanonical = new Map(instruments.map((i) => [canonicalSymbolOf(i), i]));
        this.canonicalByHandle = new Map(instruments.map((i) => [i[this.handle], canonicalSymbolOf(i)]));
        this.loadedDay = today;
        this.loading = undefined;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    await this.loading;
  }
}
