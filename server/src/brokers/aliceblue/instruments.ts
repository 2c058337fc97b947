// Alice Blue's NFO contract master (`<ALICEBLUE_MASTER_ROOT>/restpy/static/contract_master/NFO.csv`, no session
// needed; republished each morning after 08:00 IST): a CSV with a header row naming its columns —
//   Exch,Exchange Segment,Symbol,Token,Instrument Type,Option Type,Strike Price,Instrument Name,
//   Formatted Ins Name,Trading Symbol,Expiry Date,Lot Size,Tick Size
// Columns are found by name (never by position), rows are filtered as text before they are split, and the NIFTY
// index options (`OPTIDX`, symbol `NIFTY`) become `BrokerInstrument`s. Expiry, strike, option type, lot and tick
// all have their own columns, so nothing is read from the trading symbol. Strike and tick are in rupees.
import { BrokerError } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';

/** Where Alice Blue publishes the NFO master, under ALICEBLUE_MASTER_ROOT. */
export const ALICE_MASTER_PATH = '/restpy/static/contract_master/NFO.csv';

const COLUMNS = {
  exchange: 'Exch',
  symbol: 'Symbol',
  token: 'Token',
  instrumentType: 'Instrument Type',
  optionType: 'Option Type',
  strike: 'Strike Price',
  tradingSymbol: 'Trading Symbol',
  expiry: 'Expiry Date',
  lotSize: 'Lot Size',
  tickSize: 'Tick Size',
} as const;
type Column = keyof typeof COLUMNS;

/** One CSV line's fields (double-quoted fields may hold commas and doubled quotes). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out.map((f) => f.trim());
}

/** Where each needed column is in the header; throws when one is missing (the file changed shape). */
export function columnsOf(header: string): Record<Column, number> {
  const names = csvFields(header.replace(/^\uFEFF/, ''));
  const at = {} as Record<Column, number>;
  for (const [key, name] of Object.entries(COLUMNS) as [Column, string][]) {
    const index = names.indexOf(name);
    if (index < 0) {
      throw new BrokerError('network', 'MASTER_SHAPE', `Alice Blue master lacks ${name}`, 'aliceblue');
    }
    at[key] = index;
  }
  return at;
}

/** `2026-12-01` as is; `01-12-2026` and `01-Dec-2026` (older files) to `2026-12-01`; else undefined. */
export function aliceExpiry(text: string): string | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const numeric = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  if (numeric) return `${numeric[3]}-${numeric[2]}-${numeric[1]}`;
  const named = /^(\d{2})-([A-Za-z]{3})-(\d{4})$/.exec(text);
  if (!named) return undefined;
  const month = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'].indexOf(
    (named[2] ?? '').toUpperCase(),
  );
  return month < 0 ? undefined : `${named[3]}-${String(month + 1).padStart(2, '0')}-${named[1]}`;
}

/** A master row as a `BrokerInstrument`, or undefined when it is not a NIFTY index option. */
export function toBrokerInstrument(
  fields: readonly string[],
  at: Record<Column, number>,
): BrokerInstrument | undefined {
  const get = (column: Column): string => fields[at[column]] ?? '';
  if (get('exchange') !== 'NFO' || get('instrumentType') !== 'OPTIDX' || get('symbol') !== 'NIFTY')
    return undefined;
  const optionType = get('optionType');
  const expiry = aliceExpiry(get('expiry'));
  const strike = Number(get('strike'));
  const lotSize = Number(get('lotSize'));
  const tickSize = Number(get('tickSize'));
  const token = get('token');
  if (optionType !== 'CE' && optionType !== 'PE') return undefined;
  if (expiry === undefined || token === '' || !(strike > 0) || !(lotSize > 0) || !(tickSize > 0))
    return undefined;
  return { token, tradingSymbol: get('tradingSymbol'), expiry, strike, optionType, lotSize, tickSize };
}

/** The NIFTY options of a master arriving as text chunks; only lines naming OPTIDX and NIFTY are split. */
export async function parseAliceMaster(chunks: AsyncIterable<string>): Promise<BrokerInstrument[]> {
  const out: BrokerInstrument[] = [];
  let at: Record<Column, number> | undefined;
  let rest = '';
  const take = (line: string): void => {
    if (line.trim() === '') return;
    if (at === undefined) {
      at = columnsOf(line);
      return;
    }
    if (!line.includes('OPTIDX') || !line.includes('NIFTY')) return;
    const instrument = toBrokerInstrument(csvFields(line), at);
    if (instrument !== undefined) out.push(instrument);
  };
  for await (const chunk of chunks) {
    const lines = (rest + chunk).split(/\r?\n/);
    rest = lines.pop() ?? '';
    for (const line of lines) take(line);
  }
  take(rest);
  return out;
}

async function* utf8(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of bytes) yield decoder.decode(chunk, { stream: true });
  const tail = decoder.decode();
  if (tail !== '') yield tail;
}

/** Downloads and parses the master (streamed: a daily download, not the order path). Throws `BrokerError`. */
export async function fetchAliceInstruments(url: string): Promise<BrokerInstrument[]> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  } catch {
    throw new BrokerError(
      'network',
      'MASTER_UNREACHABLE',
      'Alice Blue contract master unreachable',
      'aliceblue',
    );
  }
  if (!response.ok || response.body === null) {
    throw new BrokerError(
      'rejected',
      `HTTP ${response.status}`,
      'Alice Blue contract master refused',
      'aliceblue',
    );
  }
  // Node's web ReadableStream is async-iterable; the DOM typings (seen by test/ code importing this) say otherwise.
  return parseAliceMaster(utf8(response.body as unknown as AsyncIterable<Uint8Array>));
}
