// Rows of Upstox's instrument master (`complete.json.gz`) in its documented shape: NIFTY 50 weekly options plus
// rows the adapter must skip (the index itself, a future, a BANKNIFTY option, an equity).

export interface UpstoxInstrumentRow {
  readonly [field: string]: string | number | boolean | null;
}

/** Epoch ms of 23:59:59 IST on `date` (`YYYY-MM-DD`): how Upstox stamps expiries. */
export function upstoxExpiry(date: string): number {
  return Date.parse(`${date}T23:59:59+05:30`);
}

let token = 40_000;

/** One NIFTY option row. */
export function niftyOptionRow(expiry: string, strike: number, optionType: 'CE' | 'PE'): UpstoxInstrumentRow {
  token += 1;
  const d = new Date(`${expiry}T00:00:00Z`);
  const label = `${String(d.getUTCDate()).padStart(2, '0')} ${d.toLocaleString('en', { month: 'short', timeZone: 'UTC' }).toUpperCase()} ${String(d.getUTCFullYear()).slice(2)}`;
  return {
    weekly: true,
    segment: 'NSE_FO',
    name: 'NIFTY',
    exchange: 'NSE',
    expiry: upstoxExpiry(expiry),
    instrument_type: optionType,
    asset_symbol: 'NIFTY',
    underlying_symbol: 'NIFTY',
    instrument_key: `NSE_FO|${token}`,
    lot_size: 65,
    freeze_quantity: 1800,
    exchange_token: String(token),
    minimum_lot: 65,
    asset_key: 'NSE_INDEX|Nifty 50',
    underlying_key: 'NSE_INDEX|Nifty 50',
    tick_size: 5,
    asset_type: 'INDEX',
    underlying_type: 'INDEX',
    trading_symbol: `NIFTY ${strike} ${optionType} ${label}`,
    strike_price: strike,
    qty_multiplier: 1,
  };
}

/** CE and PE rows for every strike of every expiry, and the rows a NIFTY filter must skip. */
export function niftyOptionRows(
  expiries: readonly string[],
  strikes: readonly number[],
): UpstoxInstrumentRow[] {
  const rows: UpstoxInstrumentRow[] = [
    {
      segment: 'NSE_INDEX',
      name: 'Nifty 50',
      exchange: 'NSE',
      instrument_type: 'INDEX',
      instrument_key: 'NSE_INDEX|Nifty 50',
      exchange_token: '26000',
      trading_symbol: 'NIFTY',
    },
    {
      segment: 'NSE_EQ',
      name: 'RELIANCE INDUSTRIES LTD',
      exchange: 'NSE',
      isin: 'INE002A01018',
      instrument_type: 'EQ',
      instrument_key: 'NSE_EQ|INE002A01018',
      lot_size: 1,
      tick_size: 10,
      trading_symbol: 'RELIANCE',
    },
  ];
  for (const expiry of expiries) {
    rows.push({
      ...niftyOptionRow(expiry, strikes[0] ?? 24_000, 'CE'),
      instrument_type: 'FUT',
      strike_price: 0,
      trading_symbol: 'NIFTY FUT',
    });
    rows.push({
      ...niftyOptionRow(expiry, 52_000, 'CE'),
      name: 'BANKNIFTY',
      underlying_key: 'NSE_INDEX|Nifty Bank',
      underlying_symbol: 'BANKNIFTY',
      trading_symbol: 'BANKNIFTY 52000 CE',
    });
    for (const strike of strikes) {
      rows.push(niftyOptionRow(expiry, strike, 'CE'), niftyOptionRow(expiry, strike, 'PE'));
    }
  }
  return rows;
}
