// The market facts the trading service needs, from the engine's data files: the session calendar chosen by
// SIM_SESSION and the NIFTY expiry calendar (weekly expiry, lot size, strike step), which always follows the real
// exchange calendar, even in `always` mode, because contracts expire on exchange days whatever the demo does.
import {
  createExchangeCalendar,
  createExpiryCalendar,
  alwaysOpenCalendar,
  istDate,
  istDateTime,
  loadCalendarData,
  parseContractSpecs,
  underlyingSpec,
  type ExpiryCalendar,
  type MarketCalendar,
} from '@optionpilot/engine';
// Imported as modules (not read from disk) so the esbuild bundle carries them and no path depends on the layout.
import calendarJson from '../../../engine/data/nse-calendar.json' with { type: 'json' };
import contractsJson from '../../../engine/data/nse-contracts.json' with { type: 'json' };

/** Square-off instant of positions that must never be squared off (`SIM_SESSION=always`); finite so it survives JSON. */
export const NO_SQUARE_OFF = Number.MAX_SAFE_INTEGER;

export interface MarketContext {
  /** `always`: every instant is in session and in the entry window; `market`: the IST exchange calendar */
  readonly mode: 'always' | 'market';
  readonly calendar: MarketCalendar;
  readonly expiries: ExpiryCalendar;
  /** calendar data warnings (e.g. the current year is missing), for the log */
  readonly warnings: readonly string[];
}

/** Builds the calendars for `SIM_SESSION`; `now` only decides which calendar warnings apply. */
export function createMarketContext(props: { mode: 'always' | 'market'; now: number }): MarketContext {
  const loaded = loadCalendarData(calendarJson, { now: props.now });
  const exchange = createExchangeCalendar(loaded.data);
  const expiries = createExpiryCalendar(exchange, underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY'));
  return {
    mode: props.mode,
    calendar: props.mode === 'always' ? alwaysOpenCalendar : exchange,
    expiries,
    warnings: loaded.warnings,
  };
}

/**
 * When a position opened at `time` is closed by the square-off rule: `squareOffTime` (admin control, IST) on the
 * entry's date in `market` mode, on regular trading days; never in `always` mode, where every instant counts as in
 * session and a clock-time square-off would close night-time demo positions the moment they opened.
 */
export function squareOffInstant(market: MarketContext, time: number, squareOffTime: string): number {
  if (market.mode === 'always') return NO_SQUARE_OFF;
  const date = istDate(time);
  if (!market.calendar.hasRegularSession(date)) return NO_SQUARE_OFF;
  return istDateTime(date, squareOffTime);
}
