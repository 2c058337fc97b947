import { describe, expect, it } from 'vitest';
import { canonicalSymbolOf } from '../instruments/book';
import { aliceExpiry, csvFields, parseAliceMaster } from './instruments';

const HEADER =
  'Exch,Exchange Segment,Symbol,Token,Instrument Type,Option Type,Strike Price,Instrument Name,Formatted Ins Name,Trading Symbol,Expiry Date,Lot Size,Tick Size';

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('the NFO contract master', () => {
  const csv = [
    HEADER,
    'NFO,nse_fo,NIFTY,45001,OPTIDX,CE,24000.0,NIFTY,"NIFTY 01DEC26 24000 CE",NIFTY01DEC26C24000,2026-12-01,65,0.05',
    'NFO,nse_fo,NIFTY,45002,OPTIDX,PE,24000.0,NIFTY,"NIFTY 01DEC26 24000 PE",NIFTY01DEC26P24000,2026-12-01,65,0.05',
    'NFO,nse_fo,BANKNIFTY,45003,OPTIDX,CE,52000.0,BANKNIFTY,x,BANKNIFTY01DEC26C52000,2026-12-01,30,0.05',
    'NFO,nse_fo,NIFTY,45004,FUTIDX,XX,0,NIFTY,x,NIFTY26DECFUT,2026-12-29,65,0.1',
    'NFO,nse_fo,NIFTY,45005,OPTIDX,CE,-1,NIFTY,x,BROKEN,2026-12-01,65,0.05',
    '',
  ].join('\r\n');

  it('keeps the NIFTY index options with their own columns, whatever the chunking', async () => {
    for (const size of [7, 100, csv.length]) {
      const instruments = await parseAliceMaster(chunked(csv, size));
      expect(instruments).toHaveLength(2);
      expect(instruments[0]).toEqual({
        token: '45001',
        tradingSymbol: 'NIFTY01DEC26C24000',
        expiry: '2026-12-01',
        strike: 24000,
        optionType: 'CE',
        lotSize: 65,
        tickSize: 0.05,
      });
      expect(instruments.map(canonicalSymbolOf)).toEqual(['NIFTY01DEC2624000CE', 'NIFTY01DEC2624000PE']);
    }
  });

  it('finds columns by name, not position', async () => {
    const swapped = [
      'Token,Exch,Symbol,Instrument Type,Option Type,Strike Price,Trading Symbol,Expiry Date,Lot Size,Tick Size',
      '45001,NFO,NIFTY,OPTIDX,PE,23950,T1,2026-12-01,65,0.05',
    ].join('\n');
    const [instrument] = await parseAliceMaster(chunked(swapped, 1_000));
    expect(instrument).toMatchObject({ token: '45001', optionType: 'PE', strike: 23950 });
  });

  it('refuses a master without a needed column', async () => {
    await expect(parseAliceMaster(chunked('Exch,Token\nNFO,1\n', 100))).rejects.toThrow(/Lot Size|Symbol/);
  });

  it('reads quoted fields and the older expiry forms', () => {
    expect(csvFields('a,"b, c","d ""e"""')).toEqual(['a', 'b, c', 'd "e"']);
    expect(aliceExpiry('01-12-2026')).toBe('2026-12-01');
    expect(aliceExpiry('01-Dec-2026')).toBe('2026-12-01');
    expect(aliceExpiry('Dec 2026')).toBeUndefined();
  });
});
