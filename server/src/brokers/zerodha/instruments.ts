// Kite's `instruments/NFO` dump (CSV, no session needed) reduced to NIFTY index options, and a per-module book
// that maps the engine's canonical symbols to Kite's trading symbols and tokens and back.
import type { BrokerInstrument } from '../types';
import { splitCsvLine } from '../instruments/csv';

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

export { canonicalSymbolOf } from '../instruments/book';
