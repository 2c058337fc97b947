import { describe, expect, it } from 'vitest';
import type { MarketSessionDto, SessionFactsDto } from '@optionpilot/server/contract';
import { noTradesMessage, sessionLines, tradingHoursNote } from './sessionText';

const FACTS: SessionFactsDto = {
  mode: 'market',
  marketOpen: '09:15',
  marketClose: '15:30',
  entryStart: '09:15',
  entryEnd: '15:00',
  squareOff: '15:15',
};

function session(state: Partial<MarketSessionDto['state']>, facts = FACTS): MarketSessionDto {
  return {
    facts,
    marketClock: { kind: 'real', speed: 1 },
    state: {
      at: '2026-11-23T05:00:00.000Z',
      inSession: true,
      inEntryWindow: true,
      nextOpenAt: null,
      ...state,
    },
  };
}

describe('session text', () => {
  it('words the facts it is given, the same way everywhere', () => {
    expect(sessionLines(FACTS)).toEqual({
      market: '09:15–15:30 IST',
      entries: '09:15–15:00 IST',
      squareOff: '15:15 IST',
    });
    expect(sessionLines({ ...FACTS, entryEnd: '14:30', squareOff: '14:45' })).toMatchObject({
      entries: '09:15–14:30 IST',
      squareOff: '14:45 IST',
    });
    expect(sessionLines({ ...FACTS, mode: 'always' }).squareOff).toBe('None (demo market)');
  });

  it('never says the market will open while it is open', () => {
    const open = noTradesMessage(session({ nextOpenAt: '2026-11-24T03:45:00.000Z' }));
    expect(open).toBe(
      'No trades yet. The market is open: the bot trades on the next signal while it is switched on (new trades 09:15–15:00 IST).',
    );
    expect(open).not.toMatch(/when (the )?market opens/);
    expect(
      noTradesMessage(
        session({
          inEntryWindow: false,
          nextOpenAt: '2026-11-24T03:45:00.000Z',
          at: '2026-11-23T09:45:00.000Z',
        }),
      ),
    ).toBe(
      'No trades yet. New trades are taken 09:15–15:00 IST; the next session opens 24 Nov 2026, 09:15 IST.',
    );
    expect(
      noTradesMessage(
        session({ inSession: false, inEntryWindow: false, nextOpenAt: '2026-11-24T03:45:00.000Z' }),
      ),
    ).toBe(
      'No trades yet. The market is closed; trading starts automatically when it opens, 24 Nov 2026, 09:15 IST.',
    );
    expect(noTradesMessage(session({}, { ...FACTS, mode: 'always' }))).toMatch(
      /demo market is open around the clock/,
    );
    expect(noTradesMessage(null)).toBe('No trades yet.');
  });

  it("explains the user's trading hours against the strategy's window", () => {
    expect(tradingHoursNote(FACTS, '09:15', '15:30')).toBe(
      "New trades from 09:15 to 15:00 IST: your hours inside the strategy's entry window (09:15–15:00 IST). " +
        'Open positions are closed at 15:15 IST; the market is open 09:15–15:30 IST.',
    );
    expect(tradingHoursNote(FACTS, '10:00', '14:00')).toMatch(/^New trades from 10:00 to 14:00 IST/);
    expect(tradingHoursNote(FACTS, '15:05', '15:30')).toMatch(/^These hours leave no time inside/);
    expect(tradingHoursNote({ ...FACTS, mode: 'always' }, '09:15', '15:30')).toBe(
      'Demo market: every moment counts as market hours, so these hours are not applied.',
    );
  });
});
