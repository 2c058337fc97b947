// The fake's `instruments/NFO` dump: a few NIFTY weekly options around a base strike plus rows the adapter must
// skip (a NIFTY future, BANKNIFTY options). Columns and formats as in Kite's CSV dump and kiteconnect-mocks.

export const KITE_CSV_HEADER =
  'instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange';

/** One NIFTY option row of the fake master. */
export interface FakeInstrument {
  readonly token: number;
  readonly tradingSymbol: string;
  /** `YYYY-MM-DD` */
  readonly expiry: string;
  readonly strike: number;
  readonly optionType: 'CE' | 'PE';
  readonly lotSize: number;
}

const MONTH_CODES = '123456789OND';

/** Kite's weekly option symbol: NIFTY + YY + month code + DD + strike + CE/PE (e.g. NIFTY26D0124000CE). */
export function kiteWeeklySymbol(expiry: string, strike: number, optionType: 'CE' | 'PE'): string {
  const [year, month, day] = expiry.split('-');
  return `NIFTY${year?.slice(2)}${MONTH_CODES[Number(month) - 1]}${day}${strike}${optionType}`;
}

/** NIFTY options of one expiry, `count` strikes either side of `base`, 50 apart. */
export function niftyOptions(expiry: string, base: number, count: number, lotSize: number): FakeInstrument[] {
  const rows: FakeInstrument[] = [];
  let exchangeToken = 35_000;
  for (let i = -count; i <= count; i += 1) {
    const strike = base + i * 50;
    for (const optionType of ['CE', 'PE'] as const) {
      exchangeToken += 1;
      rows.push({
        // Kite tokens carry the segment in the low byte: 2 for NFO.
        token: exchangeToken * 256 + 2,
        tradingSymbol: kiteWeeklySymbol(expiry, strike, optionType),
        expiry,
        strike,
        optionType,
        lotSize,
      });
    }
  }
  return rows;
}

/** The CSV body the fake serves. */
export function instrumentsCsv(options: readonly FakeInstrument[], expiry: string, lotSize: number): string {
  const lines = [KITE_CSV_HEADER];
  for (const o of options) {
    const exchangeToken = Math.floor(o.token / 256);
    lines.push(
      `${o.token},${exchangeToken},${o.tradingSymbol},"NIFTY",0.0,${o.expiry},${o.strike}.0,0.05,${o.lotSize},${o.optionType},NFO-OPT,NFO`,
    );
  }
  // Rows that are not NIFTY options: the adapter keeps none of them.
  lines.push(`9000001,35156,NIFTY26DECFUT,"NIFTY",0.0,${expiry},0.0,0.1,${lotSize},FUT,NFO-FUT,NFO`);
  lines.push(`9000002,35157,BANKNIFTY26DEC52000CE,"BANKNIFTY",0.0,${expiry},52000.0,0.05,30,CE,NFO-OPT,NFO`);
  lines.push(`9000003,35158,FINNIFTY26DEC24000CE,"FINNIFTY",0.0,${expiry},24000.0,0.05,65,CE,NFO-OPT,NFO`);
  return `${lines.join('\n')}\n`;
}
