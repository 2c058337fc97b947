// The fake's scrip master: NIFTY weekly options of one expiry around a base strike, in the shape of Angel One's
// `OpenAPIScripMaster.json` (strike ×100 and tick size in paise, both as text with six decimals; expiry
// `DDMMMYYYY`), plus rows the module must skip (the index itself, a NIFTY future, a BANKNIFTY option, an equity).
export interface FakeInstrument {
  readonly token: string;
  readonly tradingSymbol: string;
  readonly strike: number;
  readonly optionType: 'CE' | 'PE';
  readonly lotSize: number;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `2026-01-06` → `06JAN2026` (the master's expiry) and `06JAN26` (inside its symbols). */
export function angelDates(expiry: string): { long: string; short: string } {
  const [y, m, d] = expiry.split('-') as [string, string, string];
  const mon = MONTHS[Number(m) - 1] ?? 'JAN';
  return { long: `${d}${mon}${y}`, short: `${d}${mon}${y.slice(2)}` };
}

/** Options `count` strikes either side of `baseStrike` (50 apart); tokens are numbers as text. */
export function niftyOptions(
  expiry: string,
  baseStrike: number,
  count: number,
  lotSize: number,
): FakeInstrument[] {
  const { short } = angelDates(expiry);
  const out: FakeInstrument[] = [];
  let token = 45_000;
  for (let k = -count; k <= count; k += 1) {
    const strike = baseStrike + k * 50;
    for (const optionType of ['CE', 'PE'] as const) {
      token += 1;
      out.push({
        token: String(token),
        tradingSymbol: `NIFTY${short}${strike}${optionType}`,
        strike,
        optionType,
        lotSize,
      });
    }
  }
  return out;
}

const six = (n: number): string => n.toFixed(6);

/** The master JSON text. */
export function scripMasterJson(instruments: readonly FakeInstrument[], expiry: string): string {
  const { long, short } = angelDates(expiry);
  const rows: Record<string, string>[] = [
    {
      token: '99926000',
      symbol: 'Nifty 50',
      name: 'NIFTY',
      expiry: '',
      strike: six(-1),
      lotsize: '1',
      instrumenttype: 'AMXIDX',
      exch_seg: 'NSE',
      tick_size: six(0),
    },
    {
      token: '35001',
      symbol: `NIFTY${short.slice(2)}FUT`,
      name: 'NIFTY',
      expiry: long,
      strike: six(-1),
      lotsize: '65',
      instrumenttype: 'FUTIDX',
      exch_seg: 'NFO',
      tick_size: six(10),
    },
    {
      token: '35002',
      symbol: `BANKNIFTY${short}52000CE`,
      name: 'BANKNIFTY',
      expiry: long,
      strike: six(5_200_000),
      lotsize: '30',
      instrumenttype: 'OPTIDX',
      exch_seg: 'NFO',
      tick_size: six(5),
    },
    {
      token: '3045',
      symbol: 'SBIN-EQ',
      name: 'SBIN',
      expiry: '',
      strike: six(-1),
      lotsize: '1',
      instrumenttype: '',
      exch_seg: 'NSE',
      tick_size: six(5),
    },
    ...instruments.map((i) => ({
      token: i.token,
      symbol: i.tradingSymbol,
      name: 'NIFTY',
      expiry: long,
      strike: six(i.strike * 100),
      lotsize: String(i.lotSize),
      instrumenttype: 'OPTIDX',
      exch_seg: 'NFO',
      tick_size: six(5),
    })),
  ];
  return JSON.stringify(rows);
}
