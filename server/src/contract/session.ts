// The trading day's times as every page shows them. One source: the engine's calendar data and the strategy's
// controls, put together by the engine's `sessionFacts` (engine/src/calendar/sessionFacts.ts).

/** The trading day's times, each IST `HH:MM`. */
export interface SessionFactsDto {
  /**
   * `market`: the NSE calendar applies (holidays, these times, the square-off); `always`: the demo, where every
   * moment counts as in session and nothing is squared off by the clock
   */
  mode: 'market' | 'always';
  /** the exchange's regular session */
  marketOpen: string;
  marketClose: string;
  /** new entries: a setup candle closing after `entryStart` and at or before `entryEnd` */
  entryStart: string;
  entryEnd: string;
  /** open positions are closed at this time (the admins' `squareOffTime`, never after the close) */
  squareOff: string;
}

/** `GET /api/market/session` (public): the facts, the clock trades are stamped on, and the session now. */
export interface MarketSessionDto {
  facts: SessionFactsDto;
  /**
   * the clock of market times (candles, signals, trades): `real` on a broker's live feed; `simulated` / `replay`
   * run `speed` times faster than real time, so their times differ from the server's clock (logs, payments)
   */
  marketClock: { kind: 'real' | 'simulated' | 'replay'; speed: number };
  /** the session at `at` on the market clock */
  state: {
    at: string;
    inSession: boolean;
    inEntryWindow: boolean;
    /** the next regular session's open after `at`, on the market clock; null in `always` mode */
    nextOpenAt: string | null;
  };
}
