// The fake's instrument master: NIFTY weekly options of one expiry around a base strike in the shape of Groww's
// `instrument.csv` (header row; expiry `YYYY-MM-DD`; prices in rupees), plus rows the module must skip (the index,
// a NIFTY future, a BANKNIFTY option, a BSE row, an equity whose name holds a comma).
export interface GrowwFakeInstrument {
  readonly token: string;
  readonly tradingSymbol: string;
  readonly strike: number;
  readonly optionType: 'CE' | 'PE';
  readonly lotSize: number;
}

const HEADER =
  'exchange,exchange_token,trading_symbol,groww_symbol,name,instrument_type,segment,series,isin,underlying_symbol,' +
  'underlying_exchange_token,expiry_date,strike_price,lot_size,tick_size,freeze_quantity,is_reserved,buy_allowed,sell_allowed';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** NSE's weekly code inside the trading symbol (`26D01` for 2026-12-01); the module never reads it. */
function weeklyCode(expiry: string): string {
  const [y, m, d] = expiry.split('-') as [string, string, string];
  const month = Number(m);
  const code = month <= 9 ? String(month) : ['O', 'N', 'D'][month - 10];
  return `${y.slice(2)}${code}${d}`;
}

/** `NSE-NIFTY-01Dec26-24000-CE`, Groww's own symbol. */
function growwSymbol(expiry: string, strike: number, type: string): string {
  const [y, m, d] = expiry.split('-') as [string, string, string];
  return `NSE-NIFTY-${d}${MONTHS[Number(m) - 1]}${y.slice(2)}-${strike}-${type}`;
}

/** Options `count` strikes either side of `baseStrike` (50 apart). */
export function growwNiftyOptions(
  expiry: string,
  baseStrike: number,
  count: number,
  lotSize: number,
): GrowwFakeInstrument[] {
  const out: GrowwFakeInstrument[] = [];
  let token = 52_000;
  for (let k = -count; k <= count; k += 1) {
    const strike = baseStrike + k * 50;
    for (const optionType of ['CE', 'PE'] as const) {
      token += 1;
      out.push({
        token: String(token),
        tradingSymbol: `NIFTY${weeklyCode(expiry)}${strike}${optionType}`,
        strike,
        optionType,
        lotSize,
      });
    }
  }
  return out;
}

/** The CSV text. */
export function growwInstrumentCsv(instruments: readonly GrowwFakeInstrument[], expiry: string): string {
  const rows = [
    HEADER,
    'NSE,26000,NIFTY,NSE-NIFTY,NIFTY 50,IDX,CASH,,,,,,,1,0.05,,0,1,1',
    `NSE,35001,NIFTY${weeklyCode(expiry)}FUT,NSE-NIFTY-${expiry}-FUT,,FUT,FNO,,,NIFTY,26000,${expiry},,75,0.1,1800,0,1,1`,
    `NSE,49445,BANKNIFTY${weeklyCode(expiry)}52000CE,NSE-BANKNIFTY-52000-CE,,CE,FNO,,,BANKNIFTY,26009,${expiry},52000,35,0.05,601,0,1,1`,
    `BSE,1,NIFTY${weeklyCode(expiry)}24000CE,BSE-NIFTY-24000-CE,,CE,FNO,,,NIFTY,1,${expiry},24000,75,0.05,1800,0,1,1`,
    'NSE,2885,RELIANCE,NSE-RELIANCE,"RELIANCE INDUSTRIES, LTD",EQ,CASH,EQ,INE002A01018,,,,,1,0.1,,0,1,1',
    ...instruments.map(
      (i) =>
        `NSE,${i.token},${i.tradingSymbol},${growwSymbol(expiry, i.strike, i.optionType)},,${i.optionType},FNO,,,` +
        `NIFTY,26000,${expiry},${i.strike},${i.lotSize},0.05,1800,0,1,1`,
    ),
  ];
  return `${rows.join('\n')}\n`;
}
