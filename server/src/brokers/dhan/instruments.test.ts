import { describe, expect, it } from 'vitest';
import { csvFields, parseDhanMaster } from './instruments';

async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

const HEADER =
  'SEM_EXM_EXCH_ID,SEM_SEGMENT,SEM_SMST_SECURITY_ID,SEM_INSTRUMENT_NAME,SEM_EXPIRY_CODE,SEM_TRADING_SYMBOL,SEM_LOT_UNITS,SEM_CUSTOM_SYMBOL,SEM_EXPIRY_DATE,SEM_STRIKE_PRICE,SEM_OPTION_TYPE,SEM_TICK_SIZE,SEM_EXPIRY_FLAG,SEM_EXCH_INSTRUMENT_TYPE,SEM_SERIES,SM_SYMBOL_NAME';

describe('Dhan scrip master', () => {
  it('maps NIFTY index options of the NSE by their columns, skipping every other row', async () => {
    const csv = [
      HEADER,
      'NSE,D,52175,OPTIDX,0,NIFTY-Dec2026-24000-CE,65,"NIFTY 01 DEC 24000 CALL",2026-12-01 14:30:00,24000.00000,CE,5.0000,W,OP,NA,NIFTY',
      'NSE,D,52176,OPTIDX,0,NIFTY-Dec2026-24050.5-PE,65,NIFTY 01 DEC 24050.5 PUT,2026-12-01 14:30:00,24050.50000,PE,5.0000,W,OP,NA,NIFTY',
      'NSE,D,52177,OPTIDX,0,BANKNIFTY-Dec2026-52000-CE,30,x,2026-12-01 14:30:00,52000.00000,CE,5.0000,W,OP,NA,BANKNIFTY',
      'BSE,D,52178,OPTIDX,0,NIFTY-Dec2026-24000-CE,65,x,2026-12-01 14:30:00,24000.00000,CE,5.0000,W,OP,NA,NIFTY',
      'NSE,D,35001,FUTIDX,0,NIFTY-Dec2026-FUT,65,x,2026-12-01 14:30:00,-0.01000,XX,10.0000,M,FUT,NA,NIFTY',
      'NSE,I,13,INDEX,0,NIFTY,1,x,,-0.01000,XX,5.0000,NA,INDEX,NA,NIFTY',
    ].join('\r\n');
    const instruments = await parseDhanMaster(chunks(csv, 37));
    expect(instruments).toEqual([
      {
        token: '52175',
        tradingSymbol: 'NIFTY-Dec2026-24000-CE',
        expiry: '2026-12-01',
        strike: 24000,
        optionType: 'CE',
        lotSize: 65,
        tickSize: 0.05,
      },
      {
        token: '52176',
        tradingSymbol: 'NIFTY-Dec2026-24050.5-PE',
        expiry: '2026-12-01',
        strike: 24050.5,
        optionType: 'PE',
        lotSize: 65,
        tickSize: 0.05,
      },
    ]);
  });

  it('reads quoted fields with commas', () => {
    expect(csvFields('a,"b, c",d')).toEqual(['a', 'b, c', 'd']);
    expect(csvFields('"say ""hi""",x')).toEqual(['say "hi"', 'x']);
  });
});
