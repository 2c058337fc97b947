// The fake's NFO contract master: NIFTY weekly options of one expiry around a base strike, in the shape of ANT's
// `contract_master/NFO.csv` (a header row, strike and tick in rupees, expiry `YYYY-MM-DD`), plus rows the module
// must skip (a NIFTY future, a BANKNIFTY option).
export interface FakeInstrument {
  readonly token: string;
  readonly tradingSymbol: string;
  readonly strike: number;
  readonly optionType: 'CE' | 'PE';
  readonly lotSize: number;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `2026-12-01` → `01DEC26`. */
function shortDate(expiry: string): string {
  const [y, m, d] = expiry.split('-') as [string, string, string];
  return `${d}${MONTHS[Number(m) - 1] ?? 'JAN'}${y.slice(2)}`;
}

/** Options `count` strikes either side of `baseStrike` (50 apart); tokens are numbers as text. */
export function niftyOptions(
  expiry: string,
  baseStrike: number,
  count: number,
  lotSize: number,
): FakeInstrument[] {
  const out: FakeInstrument[] = [];
  let token = 45_000;
  for (let k = -count; k <= count; k += 1) {
    const strike = baseStrike + k * 50;
    for (const optionType of ['CE', 'PE'] as const) {
      token += 1;
      out.push({
        token: String(token),
        tradingSymbol: `NIFTY${shortDate(expiry)}${optionType.charAt(0)}${strike}`,
        strike,
        optionType,
        lotSize,
      });
    }
  }
  return out;
}

/** The master CSV text. */
export function contractMasterCsv(instruments: readonly FakeInstrument[], expiry: string): string {
  const rows = [
    'Exch,Exchange Segment,Symbol,Token,Instrument Type,Option Type,Strike Price,Instrument Name,Formatted Ins Name,Trading Symbol,Expiry Date,Lot Size,Tick Size',
    `NFO,nse_fo,NIFTY,35001,FUTIDX,XX,0,NIFTY,NIFTY ${expiry} FUT,NIFTY${shortDate(expiry)}F,${expiry},65,0.1`,
    `NFO,nse_fo,BANKNIFTY,36001,OPTIDX,CE,52000.0,BANKNIFTY,"BANKNIFTY ${shortDate(expiry)} 52000 CE",BANKNIFTY${shortDate(expiry)}C52000,${expiry},30,0.05`,
    ...instruments.map(
      (i) =>
        `NFO,nse_fo,NIFTY,${i.token},OPTIDX,${i.optionType},${i.strike.toFixed(1)},NIFTY,"NIFTY ${shortDate(expiry)} ${i.strike} ${i.optionType}",${i.tradingSymbol},${expiry},${i.lotSize},0.05`,
    ),
  ];
  return `${rows.join('\r\n')}\r\n`;
}
