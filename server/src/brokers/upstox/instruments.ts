// Upstox's instrument master (`complete.json.gz`: gzip of one JSON array, a row per instrument) reduced to the
// NIFTY 50 index options, and the index that maps the engine's canonical symbols to Upstox instrument keys.
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { istDate } from '@optionpilot/engine';
import { z } from 'zod';
import { canonicalSymbolOf } from '../instruments/book';
import type { BrokerInstrument } from '../types';
import { upstoxFailure } from './http';
import { jsonArrayObjects } from './jsonObjects';

/** Where Upstox publishes the master (no auth), under its assets host (UPSTOX_MASTER_ROOT). */
export const UPSTOX_INSTRUMENTS_PATH = '/market-quote/instruments/exchange/complete.json.gz';

/** The NIFTY 50 index's instrument key (feed subscriptions and the options' `underlying_key`). */
export const NIFTY_INDEX_KEY = 'NSE_INDEX|Nifty 50';

const optionRowSchema = z.object({
  segment: z.literal('NSE_FO'),
  underlying_key: z.literal(NIFTY_INDEX_KEY),
  instrument_type: z.enum(['CE', 'PE']),
  instrument_key: z.string().min(1),
  trading_symbol: z.string().min(1),
  /** epoch ms at 23:59:59 IST of the expiry date */
  expiry: z.number().int().positive(),
  strike_price: z.number().positive(),
  lot_size: z.number().int().positive(),
  /** paise */
  tick_size: z.number().positive(),
});

/** The row as a `BrokerInstrument`, or undefined when it is not a NIFTY 50 option. */
export function toBrokerInstrument(row: unknown): BrokerInstrument | undefined {
  const parsed = optionRowSchema.safeParse(row);
  if (!parsed.success || !Number.isInteger(parsed.data.strike_price)) return undefined;
  const r = parsed.data;
  return {
    token: r.instrument_key,
    tradingSymbol: r.trading_symbol,
    expiry: istDate(r.expiry),
    strike: r.strike_price,
    optionType: r.instrument_type,
    lotSize: r.lot_size,
    // Upstox gives tick_size in paise (5 = ₹0.05); the engine prices in rupees.
    tickSize: Math.round(r.tick_size) / 100,
  };
}

async function* utf8(stream: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of stream) yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

/** Parses a gzipped master from a byte stream; only rows that mention the NIFTY 50 index are JSON-parsed. */
export async function parseInstrumentMaster(gzipped: AsyncIterable<Uint8Array>): Promise<BrokerInstrument[]> {
  const gunzip = Readable.from(gzipped).pipe(createGunzip());
  const instruments: BrokerInstrument[] = [];
  for await (const text of jsonArrayObjects(utf8(gunzip))) {
    if (!text.includes('NSE_FO') || !text.includes(NIFTY_INDEX_KEY)) continue;
    const instrument = toBrokerInstrument(JSON.parse(text));
    if (instrument !== undefined) instruments.push(instrument);
  }
  return instruments;
}

/** Downloads and parses the master; throws `BrokerError` when it cannot be fetched. */
export async function fetchUpstoxInstruments(url: string): Promise<BrokerInstrument[]> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  } catch {
    throw upstoxFailure({ systemCode: 'ECONNRESET' });
  }
  if (!response.ok || response.body === null) throw upstoxFailure({ httpStatus: response.status });
  // Node's web ReadableStream is async-iterable; the DOM typings (seen by test/ code importing this) say otherwise.
  return parseInstrumentMaster(response.body as unknown as AsyncIterable<Uint8Array>);
}

/** Canonical symbol ↔ instrument, both ways. */
export interface InstrumentIndex {
  bySymbol(symbol: string): BrokerInstrument | undefined;
  /** the canonical symbol of an instrument key */
  symbolOf(token: string): string | undefined;
}

export { canonicalSymbolOf } from '../instruments/book';

export function createInstrumentIndex(instruments: readonly BrokerInstrument[]): InstrumentIndex {
  const bySymbol = new Map<string, BrokerInstrument>();
  const byToken = new Map<string, string>();
  for (const instrument of instruments) {
    const symbol = canonicalSymbolOf(instrument);
    bySymbol.set(symbol, instrument);
    byToken.set(instrument.token, symbol);
  }
  return { bySymbol: (symbol) => bySymbol.get(symbol), symbolOf: (token) => byToken.get(token) };
}

/**
 * The master, fetched on first use and again on the first use of each new IST day (new weekly contracts are
 * listed daily). Concurrent callers share one download. When a day's download fails, the last good master keeps
 * answering (yesterday's contracts still trade) and the next call tries again; with no master at all it fails.
 */
export function createDailyInstrumentIndex(props: {
  fetch: () => Promise<readonly BrokerInstrument[]>;
  now: () => number;
}): () => Promise<InstrumentIndex> {
  let loading: { date: string; index: Promise<InstrumentIndex> } | undefined;
  let lastGood: InstrumentIndex | undefined;
  return () => {
    const date = istDate(props.now());
    if (loading === undefined || loading.date !== date) {
      const fallback = lastGood;
      const index = props
        .fetch()
        .then(createInstrumentIndex)
        .then((fresh) => {
          lastGood = fresh;
          return fresh;
        });
      const entry = { date, index: fallback === undefined ? index : index.catch(() => fallback) };
      loading = entry;
      index.catch(() => {
        if (loading === entry) loading = undefined;
      });
    }
    return loading.index;
  };
}
