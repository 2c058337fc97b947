// Dhan's scrip master (`<DHAN_MASTER_ROOT>/api-data/api-scrip-master.csv`, no session needed): one CSV of every
// instrument of every exchange (~30 MB), read by its header's column names, never by position:
//   SEM_EXM_EXCH_ID NSE · SEM_SEGMENT D · SEM_SMST_SECURITY_ID 35003 · SEM_INSTRUMENT_NAME OPTIDX ·
//   SEM_TRADING_SYMBOL NIFTY-Dec2026-24000-CE · SEM_LOT_UNITS 65 · SEM_EXPIRY_DATE 2026-12-01 14:30:00 ·
//   SEM_STRIKE_PRICE 24000.00000 · SEM_OPTION_TYPE CE · SEM_TICK_SIZE 5.0000 · SM_SYMBOL_NAME NIFTY
// It is streamed line by line and only rows naming OPTIDX are split. Expiry, strike, option type, lot and tick come
// from their columns; the underlying from SM_SYMBOL_NAME (the trading symbol's first part only when a master lacks
// that column). The security id is what orders, positions and the feed name an instrument by.
import { BrokerError } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';

/** Where Dhan publishes the master, under DHAN_MASTER_ROOT. */
export const DHAN_MASTER_PATH = '/api-data/api-scrip-master.csv';

/** One CSV line's fields (the master quotes no field, but a quoted one is read correctly). */
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
  return out;
}

/** Reads rows by the header's names. */
export function columnReader(
  header: string,
): (fields: readonly string[], name: string) => string | undefined {
  const index = new Map(csvFields(header.replace(/^\uFEFF/, '')).map((name, i) => [name.trim(), i]));
  return (fields, name) => {
    const at = index.get(name);
    return at === undefined ? undefined : fields[at]?.trim();
  };
}

/**
 * A row as a `BrokerInstrument`, or undefined when it is not a NIFTY index option of the NSE. The tick is in
 * rupees when below 1 and in paise otherwise: the published master gives `5.0000` for a ₹0.05 tick (**verify**),
 * and no NIFTY option ticks by a rupee or more.
 */
export function toBrokerInstrument(
  fields: readonly string[],
  column: ReturnType<typeof columnReader>,
): BrokerInstrument | undefined {
  if (column(fields, 'SEM_INSTRUMENT_NAME') !== 'OPTIDX' || column(fields, 'SEM_EXM_EXCH_ID') !== 'NSE')
    return undefined;
  const tradingSymbol = column(fields, 'SEM_TRADING_SYMBOL') ?? '';
  const underlying = column(fields, 'SM_SYMBOL_NAME') ?? tradingSymbol.split('-')[0];
  if (underlying !== 'NIFTY') return undefined;
  const token = column(fields, 'SEM_SMST_SECURITY_ID') ?? '';
  const expiry = /^(\d{4}-\d{2}-\d{2})/.exec(column(fields, 'SEM_EXPIRY_DATE') ?? '')?.[1];
  const optionType = column(fields, 'SEM_OPTION_TYPE');
  const strike = Number(column(fields, 'SEM_STRIKE_PRICE'));
  const lotSize = Number(column(fields, 'SEM_LOT_UNITS'));
  const rawTick = Number(column(fields, 'SEM_TICK_SIZE'));
  if (!/^\d+$/.test(token) || expiry === undefined || (optionType !== 'CE' && optionType !== 'PE'))
    return undefined;
  if (!(strike > 0) || !(lotSize > 0) || !(rawTick > 0)) return undefined;
  return {
    token,
    tradingSymbol,
    expiry,
    strike: Math.round(strike * 100) / 100,
    optionType,
    lotSize,
    tickSize: rawTick >= 1 ? Math.round(rawTick) / 100 : rawTick,
  };
}

async function* lines(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of bytes) {
    rest += decoder.decode(chunk, { stream: true });
    let end = rest.indexOf('\n');
    while (end >= 0) {
      yield rest.slice(0, end).replace(/\r$/, '');
      rest = rest.slice(end + 1);
      end = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest !== '') yield rest.replace(/\r$/, '');
}

/** The NIFTY options of a master arriving as bytes; only lines naming OPTIDX are split. */
export async function parseDhanMaster(bytes: AsyncIterable<Uint8Array>): Promise<BrokerInstrument[]> {
  const out: BrokerInstrument[] = [];
  let column: ReturnType<typeof columnReader> | undefined;
  for await (const line of lines(bytes)) {
    if (column === undefined) {
      column = columnReader(line);
      continue;
    }
    if (!line.includes('OPTIDX')) continue;
    const instrument = toBrokerInstrument(csvFields(line), column);
    if (instrument !== undefined) out.push(instrument);
  }
  return out;
}

/** Downloads and parses the master (streamed with `fetch`: a daily download, not the order path). */
export async function fetchDhanInstruments(url: string): Promise<BrokerInstrument[]> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(180_000) });
  } catch {
    throw new BrokerError('network', 'MASTER_UNREACHABLE', 'Dhan scrip master unreachable', 'dhan');
  }
  if (!response.ok || response.body === null) {
    throw new BrokerError('rejected', `HTTP ${response.status}`, 'Dhan scrip master refused', 'dhan');
  }
  // Node's web ReadableStream is async-iterable; the DOM typings (seen by test/ code importing this) say otherwise.
  return parseDhanMaster(response.body as unknown as AsyncIterable<Uint8Array>);
}
