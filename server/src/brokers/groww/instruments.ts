// Groww's instrument master (`<GROWW_MASTER_ROOT>/instruments/instrument.csv`, no session needed): one CSV of every
// instrument of every segment, with a header row — exchange, exchange_token, trading_symbol, groww_symbol, name,
// instrument_type (CE / PE / FUT / EQ / IDX), segment, series, isin, underlying_symbol, underlying_exchange_token,
// expiry_date (`2025-12-24`), strike_price, lot_size, tick_size (rupees), freeze_quantity, … Columns are found by
// their header names. The NSE FNO rows whose underlying is NIFTY and whose type is CE / PE become
// `BrokerInstrument`s; the weekly trading symbol (`NIFTY25DEC24000CE`) is never parsed.
import { BrokerError } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';
import { splitCsvLine } from '../instruments/csv';

/** Where Groww publishes the master, under GROWW_MASTER_ROOT. */
export const GROWW_MASTER_PATH = '/instruments/instrument.csv';

const COLUMNS = {
  exchange: 'exchange',
  token: 'exchange_token',
  symbol: 'trading_symbol',
  type: 'instrument_type',
  segment: 'segment',
  underlying: 'underlying_symbol',
  expiry: 'expiry_date',
  strike: 'strike_price',
  lot: 'lot_size',
  tick: 'tick_size',
} as const;

/** The NIFTY index options of Groww's instrument CSV. */
export function parseGrowwMaster(csv: string): BrokerInstrument[] {
  const lines = csv.split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '').map((h) => h.trim());
  const at = Object.fromEntries(
    Object.entries(COLUMNS).map(([key, name]) => [key, header.indexOf(name)]),
  ) as Record<keyof typeof COLUMNS, number>;
  if (Object.values(at).some((i) => i < 0)) {
    throw new BrokerError('network', 'MASTER_HEADER', 'Groww instrument master: unexpected header', 'groww');
  }
  const out: BrokerInstrument[] = [];
  for (const line of lines.slice(1)) {
    // Cheap text filter first: the master holds every stock and index of every segment.
    if (!line.includes('NIFTY') || !line.includes('FNO')) continue;
    const cells = splitCsvLine(line);
    const type = cells[at.type];
    if (cells[at.underlying] !== 'NIFTY' || cells[at.segment] !== 'FNO' || cells[at.exchange] !== 'NSE')
      continue;
    if (type !== 'CE' && type !== 'PE') continue;
    const expiry = (cells[at.expiry] ?? '').slice(0, 10);
    const strike = Number(cells[at.strike]);
    const lotSize = Number(cells[at.lot]);
    const tickSize = Number(cells[at.tick]);
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

/**
 * Downloads and parses the master (a daily download, not the order path, so `fetch` rather than the adapters'
 * keep-alive transport). Throws `BrokerError` when it cannot be had.
 */
export async function fetchGrowwInstruments(url: string): Promise<BrokerInstrument[]> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(180_000) });
  } catch {
    throw new BrokerError('network', 'MASTER_UNREACHABLE', 'Groww instrument master unreachable', 'groww');
  }
  if (!response.ok) {
    throw new BrokerError('rejected', `HTTP ${response.status}`, 'Groww instrument master refused', 'groww');
  }
  return parseGrowwMaster(await response.text());
}
