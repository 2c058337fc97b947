import { afterEach, describe, expect, it } from 'vitest';
import { niftyOptions, scripMasterJson } from '../../../../test/fakes/angelone/instruments';
import { startAngelFake, type AngelFake } from '../../../../test/fakes/angelone/server';
import { createMarketContext } from '../../trading/market';
import { crossCheckMaster } from '../instruments/crossCheck';
import { InstrumentBook } from '../instruments/book';
import {
  ANGEL_MASTER_PATH,
  angelExpiry,
  canonicalSymbolOf,
  fetchAngelInstruments,
  parseAngelMaster,
} from './instruments';

async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

let fake: AngelFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('Angel One scrip master', () => {
  it('keeps only NIFTY index options, strike ÷ 100 and tick in rupees, read from the columns in any chunking', async () => {
    const master = scripMasterJson(niftyOptions('2026-01-06', 24_000, 1, 65), '2026-01-06');
    for (const size of [7, 97, 1 << 16]) {
      const parsed = await parseAngelMaster(chunks(master, size));
      expect(parsed.map(canonicalSymbolOf)).toEqual([
        'NIFTY06JAN2623950CE',
        'NIFTY06JAN2623950PE',
        'NIFTY06JAN2624000CE',
        'NIFTY06JAN2624000PE',
        'NIFTY06JAN2624050CE',
        'NIFTY06JAN2624050PE',
      ]);
      expect(parsed[2]).toEqual({
        token: '45003',
        tradingSymbol: 'NIFTY06JAN2624000CE',
        expiry: '2026-01-06',
        strike: 24_000,
        optionType: 'CE',
        lotSize: 65,
        tickSize: 0.05,
      });
    }
    expect(angelExpiry('28OCT2025')).toBe('2025-10-28');
    expect(angelExpiry('28XYZ2025')).toBeUndefined();
  });

  it("agrees with the engine's own contract data (expiry calendar, lot size, strike step)", async () => {
    const parsed = await parseAngelMaster(
      chunks(scripMasterJson(niftyOptions('2026-01-06', 24_000, 4, 65), '2026-01-06'), 4096),
    );
    const engine = createMarketContext({ mode: 'market', now: Date.parse('2026-01-05T04:00:00Z') }).expiries;
    expect(crossCheckMaster(parsed, engine)).toEqual([]);
    // A master with another lot size is reported against the engine's.
    const wrongLot = parsed.map((i) => ({ ...i, lotSize: 75 }));
    expect(crossCheckMaster(wrongLot, engine)).toContainEqual(
      expect.objectContaining({ kind: 'lot_size', master: 75, engine: 65 }),
    );
  });

  it('downloads the master from the master root and maps canonical symbols and tokens both ways, once a day', async () => {
    fake = await startAngelFake({ expiry: '2026-01-06' });
    let downloads = 0;
    let now = Date.parse('2026-01-06T03:00:00Z');
    const book = new InstrumentBook(
      () => {
        downloads += 1;
        return fetchAngelInstruments(`${fake!.url}${ANGEL_MASTER_PATH}`);
      },
      () => now,
      'token',
    );
    const pe = await book.instrumentOf('NIFTY06JAN2624050PE');
    expect(pe?.tradingSymbol).toBe('NIFTY06JAN2624050PE');
    expect(book.canonicalOf(pe?.token ?? '')).toBe('NIFTY06JAN2624050PE');
    expect(await book.instrumentOf('NIFTY06JAN2699000CE')).toBeUndefined();
    expect(downloads).toBe(1);
    now += 24 * 3_600_000;
    await book.ensureFresh();
    expect(downloads).toBe(2);
  });

  it('fails with a broker error when the master cannot be had', async () => {
    fake = await startAngelFake();
    await expect(fetchAngelInstruments(`${fake.url}/OpenAPI_File/files/missing.json`)).rejects.toMatchObject({
      kind: 'rejected',
    });
  });
});
