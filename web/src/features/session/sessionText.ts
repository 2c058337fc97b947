// The trading day's times in words, for every page that names one: the landing page, the strategy panel, Settings and
// the empty trade lists. The times themselves always come from the server (`SessionFactsDto`, made by the engine's
// `sessionFacts`); nothing here knows what they are.
import type { MarketSessionDto, SessionFactsDto } from '@optionpilot/server/contract';
import { formatIstDateTime } from '../../lib/format';

/** "09:15–15:00" */
export function timeRange(from: string, to: string): string {
  return `${from}–${to}`;
}

/** The three times every page shows, worded the same everywhere. */
export interface SessionLines {
  /** the exchange's regular session, e.g. "09:15–15:30 IST" */
  market: string;
  /** when new trades may be taken, e.g. "09:15–15:00 IST" */
  entries: string;
  /** when open positions are closed, e.g. "15:15 IST"; the demo closes nothing by the clock */
  squareOff: string;
}

export function sessionLines(facts: SessionFactsDto): SessionLines {
  return {
    market: `${timeRange(facts.marketOpen, facts.marketClose)} IST`,
    entries: `${timeRange(facts.entryStart, facts.entryEnd)} IST`,
    squareOff: facts.mode === 'always' ? 'None (demo market)' : `${facts.squareOff} IST`,
  };
}

/**
 * What the user's trading hours (Settings) do, given the strategy's window: new trades only where both allow, and
 * nothing at all on the demo market, where every moment counts as market hours.
 */
export function tradingHoursNote(facts: SessionFactsDto, start: string, end: string): string {
  if (facts.mode === 'always') {
    return 'Demo market: every moment counts as market hours, so these hours are not applied.';
  }
  const lines = sessionLines(facts);
  const from = start > facts.entryStart ? start : facts.entryStart;
  const to = end < facts.entryEnd ? end : facts.entryEnd;
  const closing = `Open positions are closed at ${lines.squareOff}; the market is open ${lines.market}.`;
  if (!/^\d{2}:\d{2}$/.test(start) || !/^\d{2}:\d{2}$/.test(end) || from >= to) {
    return `These hours leave no time inside the strategy's entry window (${lines.entries}): no new trades. ${closing}`;
  }
  return `New trades from ${from} to ${to} IST: your hours inside the strategy's entry window (${lines.entries}). ${closing}`;
}

/** The empty trade list's line: what happens next, by the state of the session now. */
export function noTradesMessage(session: MarketSessionDto | null): string {
  const none = 'No trades yet.';
  if (session === null) return none;
  const { facts, state } = session;
  const lines = sessionLines(facts);
  if (facts.mode === 'always') {
    return `${none} The demo market is open around the clock: the bot trades on the next signal while it is switched on.`;
  }
  const nextOpen = state.nextOpenAt === null ? null : formatIstDateTime(state.nextOpenAt);
  if (state.inSession && state.inEntryWindow) {
    return `${none} The market is open: the bot trades on the next signal while it is switched on (new trades ${lines.entries}).`;
  }
  if (state.inSession) {
    return `${none} New trades are taken ${lines.entries}${nextOpen ? `; the next session opens ${nextOpen}` : ''}.`;
  }
  return nextOpen
    ? `${none} The market is closed; trading starts automatically when it opens, ${nextOpen}.`
    : `${none} The market is closed; trading starts automatically when it opens.`;
}
