// The trading day's times on the wire (`GET /api/market/session`, `GET /api/strategy`, `strategy:info`): copied
// from the engine's one `sessionFacts` answer, never typed in here.
import type { SessionFacts } from '@optionpilot/engine';
import type { MarketSessionDto, SessionFactsDto } from '../contract';
import { iso, isoOrNull } from './time';

/** SessionFacts + the calendar mode → SessionFactsDto. */
export function presentSessionFacts(mode: SessionFactsDto['mode'], facts: SessionFacts): SessionFactsDto {
  return {
    mode,
    marketOpen: facts.marketOpen,
    marketClose: facts.marketClose,
    entryStart: facts.entryStart,
    entryEnd: facts.entryEnd,
    squareOff: facts.squareOff,
  };
}

/** The facts with the market clock and the session at `at` (engine time, epoch ms). */
export function presentMarketSession(props: {
  facts: SessionFactsDto;
  marketClock: MarketSessionDto['marketClock'];
  at: number;
  inSession: boolean;
  inEntryWindow: boolean;
  nextOpenAt: number | null;
}): MarketSessionDto {
  return {
    facts: props.facts,
    marketClock: { kind: props.marketClock.kind, speed: props.marketClock.speed },
    state: {
      at: iso(props.at),
      inSession: props.inSession,
      inEntryWindow: props.inEntryWindow,
      nextOpenAt: isoOrNull(props.nextOpenAt),
    },
  };
}
