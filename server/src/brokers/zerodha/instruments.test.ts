import { describe, expect, it } from 'vitest';
import { instrumentsCsv, niftyOptions } from '../../../../test/fakes/kite/instruments';
import { InstrumentBook } from '../instruments/book';
import { parseKiteInstruments } from './instruments';

const header =
  'instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange';

describe('parseKiteInstruments', () => {
  it('keeps NIFTY options only, with strike, lot and tick from the dump', () => {
    const csv = [
      header,
      '12034306,47009,NIFTY26D0124000CE,"NIFTY",0.0,2026-12-01,24000.0,0.05,65,CE,NFO-OPT,NFO',
      '12034562,47010,NIFTY26D0124000PE,"NIFTY",0.0,2026-12-01,24000.0,0.05,65,PE,NFO-OPT,NFO',
      '9000001,35156,NIFTY26DECFUT,"NIFTY",0.0,2026-12-29,0.0,0.1,65,FUT,NFO-FUT,NFO',
      '9000002,35157,BANKNIFTY26DEC52000CE,"BANKNIFTY",0.0,2026-12-29,52000.0,0.05,30,CE,NFO-OPT,NFO',
      '',
    ].join('\r\n');
    expect(parseKiteInstruments(csv)).toEqual([
      {
        token: '12034306',
        tradingSymbol: 'NIFTY26D0124000CE',
        expiry: '2026-12-01',
        strike: 24000,
        optionType: 'CE',
        lotSize: 65,
        tickSize: 0.05,
      },
      {
        token: '12034562',
        tradingSymbol: 'NIFTY26D0124000PE',
        expiry: '2026-12-01',
        strike: 24000,
        optionType: 'PE',
        lotSize: 65,
        tickSize: 0.05,
      },
    ]);
  });

  it('refuses a dump whose header lacks a needed column', () => {
    expect(() => parseKiteInstruments('instrument_token,tradingsymbol\n1,X\n')).toThrow(/header/);
  });
});

describe('the Kite master in an InstrumentBook', () => {
  const rows = niftyOptions('2026-12-01', 24_000, 1, 65);
  const csv = instrumentsCsv(rows, '2026-12-01', 65);

  it('maps canonical symbols both ways and downloads once per IST day', async () => {
    let now = Date.parse('2026-11-24T09:00:00+05:30');
    let downloads = 0;
    const book = new InstrumentBook(
      async () => {
        downloads += 1;
        return parseKiteInstruments(csv);
      },
      () => now,
    );
    const [first, second] = await Promise.all([
      book.instrumentOf('NIFTY01DEC2624000CE'),
      book.instrumentOf('NIFTY01DEC2624050PE'),
    ]);
    expect(first?.tradingSymbol).toBe('NIFTY26D0124000CE');
    expect(second?.tradingSymbol).toBe('NIFTY26D0124050PE');
    expect(book.canonicalOf('NIFTY26D0123950CE')).toBe('NIFTY01DEC2623950CE');
    expect(await book.instrumentOf('NIFTY01DEC2699999CE')).toBeUndefined();
    expect(downloads).toBe(1);
    now += 24 * 3_600_000;
    await book.instrumentOf('NIFTY01DEC2624000CE');
    expect(downloads).toBe(2);
  });

  it('tries again after a failed download', async () => {
    let fail = true;
    const book = new InstrumentBook(
      async () => {
        if (fail) throw new Error('down');
        return parseKiteInstruments(csv);
      },
      () => 0,
    );
    await expect(book.instrumentOf('NIFTY01DEC2624000CE')).rejects.toThrow('down');
    fail = false;
    expect((await book.instrumentOf('NIFTY01DEC2624000CE'))?.lotSize).toBe(65);
  });
});
