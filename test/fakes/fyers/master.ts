// The fake's `sym_details/NSE_FO.csv`: NIFTY weekly options around a base strike plus rows the adapter must skip
// (a NIFTY future, BANKNIFTY and FINNIFTY options), in Fyers' 21 header-less columns: FyToken, symbol details,
// exchange instrument type (14 index options, 11 index futures), lot, tick, ISIN, session, last update, expiry
// (epoch seconds), ticker, exchange (10), segment (11), scrip code, underlying, underlying scrip code, strike,
// option type, underlying FyToken and three reserved columns.
import { istDateTime } from '../../../engine/src/calendar/ist';

/** One NIFTY option row of the fake master. */
export interface FakeFyersInstrument {
  /** FyToken: `1011` + YYMMDD + the scrip code */
  readonly fyToken: string;
  readonly scripCode: string;
  /** `NSE:NIFTY26D0124000CE` */
  readonly ticker: string;
  /** `YYYY-MM-DD` */
  readonly expiry: string;
  readonly strike: number;
  readonly optionType: 'CE' | 'PE';
  readonly lotSize: number;
}

const MONTH_CODES = '123456789OND';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The NIFTY 50 index's FyToken (its HSM topic is `if|nse_cm|Nifty 50`). */
export const NIFTY_INDEX_FYTOKEN = '101000000026000';

/** Fyers' weekly ticker: NSE:NIFTY + YY + month code + DD + strike + CE/PE. */
export function fyersWeeklyTicker(expiry: string, strike: number, optionType: 'CE' | 'PE'): string {
  const [year, month, day] = expiry.split('-');
  return `NSE:NIFTY${year?.slice(2)}${MONTH_CODES[Number(month) - 1]}${day}${strike}${optionType}`;
}

/** NIFTY options of one expiry, `count` strikes either side of `base`, 50 apart. */
export function fakeNiftyOptions(
  expiry: string,
  base: number,
  count: number,
  lotSize: number,
): FakeFyersInstrument[] {
  const yymmdd = expiry.slice(2).replaceAll('-', '');
  const rows: FakeFyersInstrument[] = [];
  let scrip = 43_000;
  for (let i = -count; i <= count; i += 1) {
    const strike = base + i * 50;
    for (const optionType of ['CE', 'PE'] as const) {
      scrip += 1;
      rows.push({
        fyToken: `1011${yymmdd}${scrip}`,
        scripCode: String(scrip),
        ticker: fyersWeeklyTicker(expiry, strike, optionType),
        expiry,
        strike,
        optionType,
        lotSize,
      });
    }
  }
  return rows;
}

function row(cells: {
  fyToken: string;
  details: string;
  type: number;
  lot: number;
  tick: number;
  expiry: string;
  ticker: string;
  scrip: string;
  underlying: string;
  underlyingScrip: string;
  strike: number;
  optionType: string;
}): string {
  // Fyers stamps the expiry as the epoch of the expiry day's close (15:30 IST).
  const expirySeconds = Math.floor(istDateTime(cells.expiry, 15 * 60 + 30) / 1_000);
  return [
    cells.fyToken,
    cells.details,
    cells.type,
    cells.lot,
    cells.tick,
    '',
    '0915-1530|1815-1915:',
    '2026-11-24',
    expirySeconds,
    cells.ticker,
    10,
    11,
    cells.scrip,
    cells.underlying,
    cells.underlyingScrip,
    cells.strike,
    cells.optionType,
    cells.underlying === 'NIFTY' ? NIFTY_INDEX_FYTOKEN : '101000000026009',
    'None',
    0,
    0.0,
  ].join(',');
}

function details(expiry: string, strike: number, optionType: string, underlying = 'NIFTY'): string {
  const [year, month, day] = expiry.split('-');
  return `${underlying} ${day} ${MONTHS[Number(month) - 1]} ${year?.slice(2)} ${strike} ${optionType}`;
}

/** The CSV body the fake serves. */
export function fyersMasterCsv(
  options: readonly FakeFyersInstrument[],
  expiry: string,
  lotSize: number,
): string {
  const lines = options.map((o) =>
    row({
      fyToken: o.fyToken,
      details: details(o.expiry, o.strike, o.optionType),
      type: 14,
      lot: o.lotSize,
      tick: 0.05,
      expiry: o.expiry,
      ticker: o.ticker,
      scrip: o.scripCode,
      underlying: 'NIFTY',
      underlyingScrip: '26000',
      strike: o.strike,
      optionType: o.optionType,
    }),
  );
  const yy = expiry.slice(2, 4);
  // Rows that are not NIFTY options: the adapter keeps none of them.
  lines.push(
    row({
      fyToken: '101126122935001',
      details: `NIFTY ${yy} Dec FUT`,
      type: 11,
      lot: lotSize,
      tick: 0.1,
      expiry,
      ticker: `NSE:NIFTY${yy}DECFUT`,
      scrip: '35001',
      underlying: 'NIFTY',
      underlyingScrip: '26000',
      strike: -1,
      optionType: 'XX',
    }),
    row({
      fyToken: '101126122935002',
      details: details(expiry, 52_000, 'CE', 'BANKNIFTY'),
      type: 14,
      lot: 30,
      tick: 0.05,
      expiry,
      ticker: `NSE:BANKNIFTY${yy}DEC52000CE`,
      scrip: '35002',
      underlying: 'BANKNIFTY',
      underlyingScrip: '26009',
      strike: 52_000,
      optionType: 'CE',
    }),
    row({
      fyToken: '101126122935003',
      details: details(expiry, 24_000, 'CE', 'FINNIFTY'),
      type: 14,
      lot: 65,
      tick: 0.05,
      expiry,
      ticker: `NSE:FINNIFTY${yy}DEC24000CE`,
      scrip: '35003',
      underlying: 'FINNIFTY',
      underlyingScrip: '26037',
      strike: 24_000,
      optionType: 'CE',
    }),
  );
  return `${lines.join('\n')}\n`;
}
