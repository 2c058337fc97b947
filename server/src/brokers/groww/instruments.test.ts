import { afterEach, describe, expect, it } from 'vitest';
import { growwInstrumentCsv, growwNiftyOptions } from '../../../../test/fakes/groww/instruments';
import { startGrowwFake, type GrowwFake } from '../../../../test/fakes/groww/server';
import { createMarketContext } from '../../trading/market';
import { canonicalSymbolOf, InstrumentBook } from '../instruments/book';
import { crossCheckMaster } from '../instruments/crossCheck';
import { fetchGrowwInstruments, GROWW_MASTER_PATH, parseGrowwMaster } from './instruments';

let fake: GrowwFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('Groww instrument master', () => {
  it('keeps only NSE FNO NIFTY options, read by header name (quoted commas included), never from the symbol', () => {
    const csv = growwInstrumentCsv(growwNiftyOptions('2026-01-06', 24_000, 1, 65), '2026-01-06');
    const parsed = parseGrowwMaster(csv);
    expect(parsed.map(canonicalSymbolOf)).toEqual([
      'NIFTY06JAN2623950CE',
      'NIFTY06JAN2623950PE',
      'NIFTY06JAN2624000CE',
      'NIFTY06JAN2624000PE',
      'NIFTY06JAN2624050CE',
      'NIFTY06JAN2624050PE',
    ]);
    expect(parsed[2]).toEqual({
      token: '52003',
      tradingSymbol: 'NIFTY2610624000CE',
      expiry: '2026-01-06',
      strike: 24_000,
      optionType: 'CE',
      lotSize: 65,
      tickSize: 0.05,
    });
    // Columns move: they are found by name.
    const [header = '', ...rows] = csv.trim().split('\n');
    const cells = header.split(',');
    const swapped = [
      cells
        .slice(1)
        .concat(cells[0] ?? '')
        .join(','),
    ]
      .concat(
        rows.map((r) => {
          const c = r.match(/("[^"]*"|[^,]*)(,|$)/g)?.map((x) => x.replace(/,$/, '')) ?? [];
          return c
            .slice(1, -1)
            .concat(c[0] ?? '')
            .join(',');
        }),
      )
      .join('\n');
    expect(parseGrowwMaster(swapped).map(canonicalSymbolOf)).toEqual(parsed.map(canonicalSymbolOf));
    expect(() => parseGrowwMaster('a,b\n1,2')).toThrow(/header/);
  });

  it("agrees with the engine's own contract data (expiry calendar, lot size, strike step)", () => {
    const parsed = parseGrowwMaster(
      growwInstrumentCsv(growwNiftyOptions('2026-01-06', 24_000, 4, 65), '2026-01-06'),
    );
    const engine = createMarketContext({ mode: 'market', now: Date.parse('2026-01-05T04:00:00Z') }).expiries;
    expect(crossCheckMaster(parsed, engine)).toEqual([]);
    const wrongLot = parsed.map((i) => ({ ...i, lotSize: 75 }));
    expect(crossCheckMaster(wrongLot, engine)).toContainEqual(
      expect.objectContaining({ kind: 'lot_size', master: 75, engine: 65 }),
    );
  });

  it('downloads the master from the master root; positions map back by trading symbol; once a day', async () => {
    fake = await startGrowwFake({ expiry: '2026-01-06' });
    let downloads = 0;
    let now = Date.parse('2026-01-06T03:00:00Z');
    const book = new InstrumentBook(
      () => {
        downloads += 1;
        return fetchGrowwInstruments(`${fake!.url}${GROWW_MASTER_PATH}`);
      },
      () => now,
      'tradingSymbol',
    );
    const pe = await book.instrumentOf('NIFTY06JAN2624050PE');
    expect(pe?.tradingSymbol).toBe('NIFTY2610624050PE');
    expect(book.canonicalOf('NIFTY2610624050PE')).toBe('NIFTY06JAN2624050PE');
    expect(await book.instrumentOf('NIFTY06JAN2699000CE')).toBeUndefined();
    expect(downloads).toBe(1);
    now += 24 * 3_600_000;
    await book.ensureFresh();
    expect(downloads).toBe(2);
  });

  it('fails with a broker error when the master cannot be had', async () => {
    fake = await startGrowwFake();
    await expect(fetchGrowwInstruments(`${fake.url}/instruments/missing.csv`)).rejects.toMatchObject({
      kind: 'rejected',
    });
    await expect(
      fetchGrowwInstruments('http://127.0.0.1:9/instruments/instrument.csv'),
    ).rejects.toMatchObject({
      kind: 'network',
    });
  });
});
