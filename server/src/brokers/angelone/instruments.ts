// Angel One's scrip master (`<ANGELONE_MASTER_ROOT>/OpenAPI_File/files/OpenAPIScripMaster.json`, no session needed):
// one JSON array of every instrument of every exchange (~35 MB), a flat object per row:
//   {"token":"35003","symbol":"NIFTY06JAN2624000CE","name":"NIFTY","expiry":"06JAN2026","strike":"2400000.000000",
//    "lotsize":"65","instrumenttype":"OPTIDX","exch_seg":"NFO","tick_size":"5.000000"}
// `strike` is ×100 and `tick_size` is in paise. It is streamed and rows are filtered as text before any is parsed;
// the NIFTY index options become `BrokerInstrument`s keyed by the engine's canonical symbol. Expiry, strike, lot and
// tick come from their columns; the master has no option-type column, so CE / PE is the symbol's last two letters
// (nothing else is read from the symbol).
import { BrokerError } from '@optionpilot/engine';
import { z } from 'zod';
import type { BrokerInstrument } from '../types';
import { angelNumber } from './wire';

/** Where Angel publishes the master, under ANGELONE_MASTER_ROOT. */
export const ANGEL_MASTER_PATH = '/OpenAPI_File/files/OpenAPIScripMaster.json';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

const optionRowSchema = z.object({
  token: z.string().min(1),
  symbol: z.string().min(3),
  name: z.literal('NIFTY'),
  expiry: z.string().regex(/^\d{2}[A-Z]{3}\d{4}$/),
  strike: angelNumber,
  lotsize: angelNumber,
  instrumenttype: z.literal('OPTIDX'),
  exch_seg: z.literal('NFO'),
  tick_size: angelNumber,
});

/** `06JAN2026` → `2026-01-06`, or undefined. */
export function angelExpiry(text: string): string | undefined {
  const month = MONTHS.indexOf(text.slice(2, 5));
  if (month < 0) return undefined;
  return `${text.slice(5)}-${String(month + 1).padStart(2, '0')}-${text.slice(0, 2)}`;
}

/** A master row as a `BrokerInstrument`, or undefined when it is not a NIFTY index option. */
export function toBrokerInstrument(row: unknown): BrokerInstrument | undefined {
  const parsed = optionRowSchema.safeParse(row);
  if (!parsed.success) return undefined;
  const r = parsed.data;
  const expiry = angelExpiry(r.expiry);
  const optionType = r.symbol.slice(-2);
  const strike = Math.round(r.strike) / 100;
  if (expiry === undefined || (optionType !== 'CE' && optionType !== 'PE')) return undefined;
  if (!(strike > 0) || !(r.lotsize > 0) || !(r.tick_size > 0)) return undefined;
  return {
    token: r.token,
    tradingSymbol: r.symbol,
    expiry,
    strike,
    optionType,
    lotSize: r.lotsize,
    // Paise in the master; the engine prices in rupees.
    tickSize: Math.round(r.tick_size) / 100,
  };
}

/**
 * The text of each top-level object of a JSON array arriving in chunks. The master's rows are flat objects, so an
 * object ends at the first `}` outside a string; nothing but the current row is held.
 */
export async function* flatObjects(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let current = '';
  let inObject = false;
  let inString = false;
  let escaped = false;
  for await (const chunk of chunks) {
    let start = inObject ? 0 : -1;
    for (let i = 0; i < chunk.length; i += 1) {
      const ch = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === 0x5c /* \ */) escaped = true;
        else if (ch === 0x22 /* " */) inString = false;
      } else if (ch === 0x22) {
        if (inObject) inString = true;
      } else if (ch === 0x7b /* { */ && !inObject) {
        inObject = true;
        start = i;
      } else if (ch === 0x7d /* } */ && inObject) {
        yield current + chunk.slice(start, i + 1);
        current = '';
        inObject = false;
        start = -1;
      }
    }
    if (inObject && start >= 0) current += chunk.slice(start);
  }
}

async function* utf8(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of bytes) yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

/** The NIFTY options of a master arriving as bytes; only rows naming OPTIDX and NIFTY are JSON-parsed. */
export async function parseAngelMaster(bytes: AsyncIterable<Uint8Array>): Promise<BrokerInstrument[]> {
  const out: BrokerInstrument[] = [];
  for await (const text of flatObjects(utf8(bytes))) {
    if (!text.includes('"OPTIDX"') || !text.includes('"NIFTY"')) continue;
    const instrument = toBrokerInstrument(JSON.parse(text));
    if (instrument !== undefined) out.push(instrument);
  }
  return out;
}

/**
 * Downloads and parses the master. Streamed with `fetch` (a daily download, not the order path, so the adapters'
 * keep-alive transport, which buffers answers, is not needed). Throws `BrokerError` when it cannot be had.
 */
export async function fetchAngelInstruments(url: string): Promise<BrokerInstrument[]> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(180_000) });
  } catch {
    throw new BrokerError('network', 'MASTER_UNREACHABLE', 'Angel One scrip master unreachable', 'angelone');
  }
  if (!response.ok || response.body === null) {
    throw new BrokerError(
      'rejected',
      `HTTP ${response.status}`,
      'Angel One scrip master refused',
      'angelone',
    );
  }
  // Node's web ReadableStream is async-iterable; the DOM typings (seen by test/ code importing this) say otherwise.
  return parseAngelMaster(response.body as unknown as AsyncIterable<Uint8Array>);
}

export { canonicalSymbolOf } from '../instruments/book';
