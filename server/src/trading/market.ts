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
  sessionFacts,
  underlyingSpec,
  type CalendarData,
  type ExchangeCalendar,
  type ExpiryCalendar,
  type MarketCalendar,
  type SessionFacts,
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
  /** the exchange's own calendar (holidays, sessions), whatever the mode */
  readonly exchange: ExchangeCalendar;
  /** the calendar data file the calendars are built from */
  readonly data: CalendarData;
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
    exchange,
    data: loaded.data,
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
  return istDateTime(date, marketSessionFacts(market, squareOffTime, time).squareOff);
}

/**
 * The trading day's times of the IST date of `time` (engine time): the calendar data's session, the product's entry
 * window and the admins' square-off time, through the engine's one `sessionFacts`.
 */
export function marketSessionFacts(market: MarketContext, squareOffTime: string, time: number): SessionFacts {
  return sessionFacts(market.data, { squareOff: squareOffTime }, istDate(time));
}

/** The first regular session open after `time` on the exchange calendar. */
export function nextSessionOpen(market: MarketContext, time: number): number {
  const regularOpen = (date: string) =>
    market.exchange.sessionsOn(date).find((s) => s.kind === 'regular')?.open;
  const today = regularOpen(istDate(time));
  if (today !== undefined && today > time) return today;
  const next = market.exchange.nextTradingDay(istDate(time));
  const open = regularOpen(next);
  // nextTradingDay returns only dates with a regular session.
  if (open === undefined) throw new RangeError(`no regular session on ${next}`);
  return open;
}
