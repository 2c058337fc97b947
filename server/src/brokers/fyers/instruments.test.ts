import { describe, expect, it } from 'vitest';
import { istDateTime } from '@optionpilot/engine';
import { InstrumentBook } from '../instruments/book';
import { canonicalSymbolOf, parseFyersMaster, scripTopicOf } from './instruments';

/** One master row in Fyers' 21 header-less columns. */
function row(fields: {
  fyToken: string;
  type: number;
  expiry: string;
  ticker: string;
  underlying: string;
  strike: number;
  optionType: string;
  lot?: number;
}): string {
  const expiry = Math.floor(istDateTime(fields.expiry, '15:30') / 1_000);
  return [
    fields.fyToken,
    'NIFTY 01 Dec 26 24000 CE',
    fields.type,
    fields.lot ?? 65,
    0.05,
    '',
    '0915-1530|1815-1915:',
    '2026-11-24',
    expiry,
    fields.ticker,
    10,
    11,
    fields.fyToken.slice(10),
    fields.underlying,
    26000,
    fields.strike,
    fields.optionType,
    '101000000026000',
    'None',
    0,
    0.0,
  ].join(',');
}

const CSV = [
  row({
    fyToken: '101126120143001',
    type: 14,
    expiry: '2026-12-01',
    ticker: 'NSE:NIFTY26D0124000CE',
    underlying: 'NIFTY',
    strike: 24000,
    optionType: 'CE',
  }),
  row({
    fyToken: '101126120143002',
    type: 14,
    expiry: '2026-12-01',
    ticker: 'NSE:NIFTY26D0124000PE',
    underlying: 'NIFTY',
    strike: 24000,
    optionType: 'PE',
  }),
  // A monthly contract: its ticker reads differently, the columns do not.
  row({
    fyToken: '101126122943003',
    type: 14,
    expiry: '2026-12-29',
    ticker: 'NSE:NIFTY26DEC24500CE',
    underlying: 'NIFTY',
    strike: 24500,
    optionType: 'CE',
  }),
  // Rows to skip: a future, another underlying, a broken row.
  row({
    fyToken: '101126122935001',
    type: 11,
    expiry: '2026-12-29',
    ticker: 'NSE:NIFTY26DECFUT',
    underlying: 'NIFTY',
    strike: -1,
    optionType: 'XX',
  }),
  row({
    fyToken: '101126120135002',
    type: 14,
    expiry: '2026-12-01',
    ticker: 'NSE:BANKNIFTY26D0152000CE',
    underlying: 'BANKNIFTY',
    strike: 52000,
    optionType: 'CE',
  }),
  'garbage,line',
  '',
].join('\n');

describe('parseFyersMaster', () => {
  it('keeps NIFTY index options, read from the columns (never the ticker)', () => {
    const instruments = parseFyersMaster(CSV);
    expect(instruments.map(canonicalSymbolOf)).toEqual([
      'NIFTY01DEC2624000CE',
      'NIFTY01DEC2624000PE',
      'NIFTY29DEC2624500CE',
    ]);
    expect(instruments[0]).toEqual({
      token: '101126120143001',
      tradingSymbol: 'NSE:NIFTY26D0124000CE',
      expiry: '2026-12-01',
      strike: 24000,
      optionType: 'CE',
      lotSize: 65,
      tickSize: 0.05,
    });
    expect(scripTopicOf(instruments[0]!)).toBe('sf|nse_fo|43001');
  });
});

describe('the Fyers master in an InstrumentBook', () => {
  it('maps both ways, downloads once per IST day and again on the next', async () => {
    let downloads = 0;
    let now = istDateTime('2026-11-24', '09:00');
    const book = new InstrumentBook(
      async () => {
        downloads += 1;
        return parseFyersMaster(CSV);
      },
      () => now,
    );
    expect((await book.instrumentOf('NIFTY01DEC2624000PE'))?.tradingSymbol).toBe('NSE:NIFTY26D0124000PE');
    expect(book.canonicalOf('NSE:NIFTY26DEC24500CE')).toBe('NIFTY29DEC2624500CE');
    await book.instrumentOf('NIFTY01DEC2624000CE');
    expect(downloads).toBe(1);
    now = istDateTime('2026-11-25', '09:00');
    await book.ensureFresh();
    expect(downloads).toBe(2);
  });
});
