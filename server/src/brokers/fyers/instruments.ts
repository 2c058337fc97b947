// Fyers' NSE F&O symbol master (`<FYERS_MASTER_ROOT>/sym_details/NSE_FO.csv`, no session, no header row) reduced
// to NIFTY index options, and a per-module book mapping the engine's canonical symbols to Fyers' symbol tickers
// and back. The columns are read by position as Fyers documents them; the weekly ticker
// (`NSE:NIFTY26D0124000CE`) is never parsed: expiry, strike and type come from their own columns.
import { istDate } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';
import { splitCsvLine } from '../instruments/csv';

export const FYERS_MASTER_PATH = '/sym_details/NSE_FO.csv';

/** The master's columns (Fyers' symbol master documentation; 21 columns, no header). */
export const FYERS_MASTER_COLUMNS = {
  fyToken: 0,
  details: 1,
  instrumentType: 2,
  lotSize: 3,
  tickSize: 4,
  expiry: 8,
  ticker: 9,
  exchange: 10,
  segment: 11,
  scripCode: 12,
  underlying: 13,
  strike: 15,
  optionType: 16,
} as const;

/** Fyers' exchange instrument type of index options (OPTIDX). */
const OPTIDX = '14';

/**
 * The NIFTY index options of an NSE_FO master. `token` is the FyToken (its last digits after the first ten are the
 * exchange scrip code the data socket subscribes to); `tradingSymbol` is the ticker orders are placed with.
 */
export function parseFyersMaster(csv: string): BrokerInstrument[] {
  const c = FYERS_MASTER_COLUMNS;
  const out: BrokerInstrument[] = [];
  for (const line of csv.split(/\r?\n/)) {
    if (line.length === 0) continue;
    const cells = splitCsvLine(line);
    const type = cells[c.optionType];
    if (cells[c.underlying] !== 'NIFTY' || cells[c.instrumentType] !== OPTIDX) continue;
    if (type !== 'CE' && type !== 'PE') continue;
    const strike = Number(cells[c.strike]);
    const lotSize = Number(cells[c.lotSize]);
    const tickSize = Number(cells[c.tickSize]);
    const expirySeconds = Number(cells[c.expiry]);
    const token = cells[c.fyToken] ?? '';
    const ticker = cells[c.ticker] ?? '';
    if (!(strike > 0) || !Number.isInteger(strike) || !(lotSize > 0) || !(tickSize > 0)) continue;
    if (!(expirySeconds > 0) || !/^\d{11,}$/.test(token) || !ticker.startsWith('NSE:')) continue;
    out.push({
      token,
      tradingSymbol: ticker,
      // The expiry is an epoch (seconds) on the expiry day; its IST date is the contract's expiry date.
      expiry: istDate(expirySeconds * 1_000),
      strike,
      optionType: type,
      lotSize,
      tickSize,
    });
  }
  return out;
}

export { canonicalSymbolOf } from '../instruments/book';

/** The data socket's topic of an option: `sf|nse_fo|<scrip code>`, the scrip code being the FyToken's tail. */
export function scripTopicOf(instrument: BrokerInstrument): string {
  return `sf|nse_fo|${instrument.token.slice(10)}`;
}
