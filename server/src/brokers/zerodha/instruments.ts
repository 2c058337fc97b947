// Kite's `instruments/NFO` dump (CSV, no session needed) reduced to NIFTY index options, and a per-module book
// that maps the engine's canonical symbols to Kite's trading symbols and tokens and back.
import { formatOptionSymbol, istDate } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';

/** Splits one CSV line; Kite quotes the `name` column. */
function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

/** The NIFTY options (name NIFTY, type CE/PE) of a Kite NFO instrument dump. */
export function parseKiteInstruments(csv: string): BrokerInstrument[] {
  const lines = csv.split(/\r?\n/).filter((l) => l.length > 0);
  const header = splitCsvLine(lines[0] ?? '');
  const col = (name: string): number => header.indexOf(name);
  const at = {
    token: col('instrument_token'),
    symbol: col('tradingsymbol'),
    name: col('name'),
    expiry: col('expiry'),
    strike: col('strike'),
    tick: col('tick_size'),
    lot: col('lot_size'),
    type: col('instrument_type'),
  };
  if (Object.values(at).some((i) => i < 0)) throw new Error('Kite instrument dump: unexpected header');
  const out: BrokerInstrument[] = [];
  for (const line of lines.slice(1)) {
    const cells = splitCsvLine(line);
    const type = cells[at.type];
    if (cells[at.name] !== 'NIFTY' || (type !== 'CE' && type !== 'PE')) continue;
    const strike = Number(cells[at.strike]);
    const lotSize = Number(cells[at.lot]);
    const tickSize = Number(cells[at.tick]);
    const expiry = cells[at.expiry] ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expiry) || !(strike > 0) || !(lotSize > 0) || !(tickSize > 0)) continue;
    out.push({
      token: cells[at.token] ?? '',
      tradingSymbol: cells[at.symbol] ?? '',
      expiry,
      strike,
      optionType: type,
      lotSize,
      tickSize,
    });
  }
  return out;
}

/** The canonical engine symbol of a Kite instrument. */
export function canonicalSymbolOf(instrument: BrokerInstrument): string {
  return formatOptionSymbol({
    underlying: 'NIFTY',
    expiry: instrument.expiry,
    strike: instrument.strike,
    optionType: instrument.optionType,
  });
}

/**
 * The instrument master one module shares across all its accounts: loaded on first use and again on the first
 * use of a new IST day (Kite publishes a new dump each morning), one download at a time.
 */
export class KiteInstrumentBook {
  private byCanonical = new Map<string, BrokerInstrument>();
  private byTradingSymbol = new Map<string, string>();
  private loadedDay: string | undefined;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly download: () => Promise<readonly BrokerInstrument[]>,
    private readonly now: () => number,
  ) {}

  /** The Kite instrument of a canonical symbol (downloads the master when it is missing or from another day). */
  async instrumentOf(canonical: string): Promise<BrokerInstrument | undefined> {
    await this.ensureFresh();
    return this.byCanonical.get(canonical);
  }

  /** The canonical symbol of a Kite trading symbol, when the loaded master lists it. */
  canonicalOf(tradingSymbol: string): string | undefined {
    return this.byTradingSymbol.get(tradingSymbol);
  }

  async ensureFresh(): Promise<void> {
    const today = istDate(this.now());
    if (this.loadedDay === today) return;
    this.loading ??= this.download().then(
      (instruments) => {
        this.byCanonical = new Map(instruments.map((i) => [canonicalSymbolOf(i), i]));
        this.byTradingSymbol = new Map(instruments.map((i) => [i.tradingSymbol, canonicalSymbolOf(i)]));
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
