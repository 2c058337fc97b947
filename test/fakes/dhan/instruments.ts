// The fake's scrip master: NIFTY weekly options of one expiry around a base strike, in the columns of Dhan's
// `api-scrip-master.csv` (a detailed header, strike with five decimals, tick size `5.0000` for ₹0.05, expiry with
// the exchange's closing time), plus rows the module must skip (the index, a NIFTY future, a BANKNIFTY option,
// a BSE option, an equity).
export interface FakeInstrument {
  /** Dhan's security id */
  readonly securityId: string;
  readonly tradingSymbol: string;
  readonly strike: number;
  readonly optionType: 'CE' | 'PE';
  readonly lotSize: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Options `count` strikes either side of `baseStrike` (50 apart); security ids are numbers as text. */
export function niftyOptions(
  expiry: string,
  baseStrike: number,
  count: number,
  lotSize: number,
): FakeInstrument[] {
  const [y, m] = expiry.split('-') as [string, string, string];
  const month = `${MONTHS[Number(m) - 1] ?? 'Jan'}${y}`;
  const out: FakeInstrument[] = [];
  let id = 52_000;
  for (let k = -count; k <= count; k += 1) {
    const strike = baseStrike + k * 50;
    for (const optionType of ['CE', 'PE'] as const) {
      id += 1;
      out.push({
        securityId: String(id),
        tradingSymbol: `NIFTY-${month}-${strike}-${optionType}`,
        strike,
        optionType,
        lotSize,
      });
    }
  }
  return out;
}

const HEADER = [
  'SEM_EXM_EXCH_ID',
  'SEM_SEGMENT',
  'SEM_SMST_SECURITY_ID',
  'SEM_INSTRUMENT_NAME',
  'SEM_EXPIRY_CODE',
  'SEM_TRADING_SYMBOL',
  'SEM_LOT_UNITS',
  'SEM_CUSTOM_SYMBOL',
  'SEM_EXPIRY_DATE',
  'SEM_STRIKE_PRICE',
  'SEM_OPTION_TYPE',
  'SEM_TICK_SIZE',
  'SEM_EXPIRY_FLAG',
  'SEM_EXCH_INSTRUMENT_TYPE',
  'SEM_SERIES',
  'SM_SYMBOL_NAME',
];

/** The master CSV text. */
export function scripMasterCsv(instruments: readonly FakeInstrument[], expiry: string): string {
  const at = `${expiry} 14:30:00`;
  const row = (r: Record<string, string | number>) => HEADER.map((h) => String(r[h] ?? '')).join(',');
  const base = { SEM_EXPIRY_CODE: 0, SEM_EXPIRY_FLAG: 'W', SEM_SERIES: 'NA' };
  const rows = [
    row({
      ...base,
      SEM_EXM_EXCH_ID: 'NSE',
      SEM_SEGMENT: 'I',
      SEM_SMST_SECURITY_ID: 13,
      SEM_INSTRUMENT_NAME: 'INDEX',
      SEM_TRADING_SYMBOL: 'NIFTY',
      SEM_LOT_UNITS: 1,
      SEM_STRIKE_PRICE: '-0.01000',
      SEM_OPTION_TYPE: 'XX',
      SEM_TICK_SIZE: '5.0000',
      SM_SYMBOL_NAME: 'NIFTY',
    }),
    row({
      ...base,
      SEM_EXM_EXCH_ID: 'NSE',
      SEM_SEGMENT: 'D',
      SEM_SMST_SECURITY_ID: 35001,
      SEM_INSTRUMENT_NAME: 'FUTIDX',
      SEM_TRADING_SYMBOL: 'NIFTY-Dec2026-FUT',
      SEM_LOT_UNITS: 65,
      SEM_EXPIRY_DATE: at,
      SEM_STRIKE_PRICE: '-0.01000',
      SEM_OPTION_TYPE: 'XX',
      SEM_TICK_SIZE: '10.0000',
      SM_SYMBOL_NAME: 'NIFTY',
    }),
    row({
      ...base,
      SEM_EXM_EXCH_ID: 'NSE',
      SEM_SEGMENT: 'D',
      SEM_SMST_SECURITY_ID: 35002,
      SEM_INSTRUMENT_NAME: 'OPTIDX',
      SEM_TRADING_SYMBOL: 'BANKNIFTY-Dec2026-52000-CE',
      SEM_LOT_UNITS: 30,
      SEM_EXPIRY_DATE: at,
      SEM_STRIKE_PRICE: '52000.00000',
      SEM_OPTION_TYPE: 'CE',
      SEM_TICK_SIZE: '5.0000',
      SM_SYMBOL_NAME: 'BANKNIFTY',
    }),
    row({
      ...base,
      SEM_EXM_EXCH_ID: 'BSE',
      SEM_SEGMENT: 'D',
      SEM_SMST_SECURITY_ID: 35003,
      SEM_INSTRUMENT_NAME: 'OPTIDX',
      SEM_TRADING_SYMBOL: 'SENSEX-Dec2026-80000-CE',
      SEM_LOT_UNITS: 20,
      SEM_EXPIRY_DATE: at,
      SEM_STRIKE_PRICE: '80000.00000',
      SEM_OPTION_TYPE: 'CE',
      SEM_TICK_SIZE: '5.0000',
      SM_SYMBOL_NAME: 'SENSEX',
    }),
    row({
      ...base,
      SEM_EXM_EXCH_ID: 'NSE',
      SEM_SEGMENT: 'E',
      SEM_SMST_SECURITY_ID: 1333,
      SEM_INSTRUMENT_NAME: 'EQUITY',
      SEM_TRADING_SYMBOL: 'HDFCBANK',
      SEM_LOT_UNITS: 1,
      SEM_STRIKE_PRICE: '-0.01000',
      SEM_OPTION_TYPE: 'XX',
      SEM_TICK_SIZE: '5.0000',
      SM_SYMBOL_NAME: 'HDFC BANK LTD',
    }),
    ...instruments.map((i) =>
      row({
        ...base,
        SEM_EXM_EXCH_ID: 'NSE',
        SEM_SEGMENT: 'D',
        SEM_SMST_SECURITY_ID: i.securityId,
        SEM_INSTRUMENT_NAME: 'OPTIDX',
        SEM_TRADING_SYMBOL: i.tradingSymbol,
        SEM_LOT_UNITS: i.lotSize,
        SEM_CUSTOM_SYMBOL: `NIFTY ${i.strike} ${i.optionType}`,
        SEM_EXPIRY_DATE: at,
        SEM_STRIKE_PRICE: i.strike.toFixed(5),
        SEM_OPTION_TYPE: i.optionType,
        SEM_TICK_SIZE: '5.0000',
        SEM_EXCH_INSTRUMENT_TYPE: 'OP',
        SM_SYMBOL_NAME: 'NIFTY',
      }),
    ),
  ];
  return `${HEADER.join(',')}\r\n${rows.join('\r\n')}\r\n`;
}
