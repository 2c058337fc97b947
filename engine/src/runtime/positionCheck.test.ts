import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparePositions, confirmedDifferences } from './positionCheck';
import type { HeldPosition } from './positionCheck';

const CE = 'NIFTY27JAN2623400CE';
const PE = 'NIFTY27JAN2623600PE';
const held = (positionId: string, quantity: number, openedAt: number, symbol = CE): HeldPosition => ({
  positionId,
  symbol,
  quantity,
  openedAt,
});
const atBroker = (symbol: string, quantity: number) => ({ symbol, quantity, avgPrice: 100, realisedPnl: 0 });

describe('comparePositions', () => {
  it('finds no difference when the broker holds exactly what OptionPilot holds', () => {
    expect(
      comparePositions([held('1', 75, 1), held('2', 75, 2, PE)], [atBroker(PE, 75), atBroker(CE, 75)]),
    ).toEqual([]);
  });

  it('closes what the broker no longer holds, newest first, and stops once OptionPilot holds no more', () => {
    const differences = comparePositions(
      [held('old', 75, 1), held('new', 75, 3), held('mid', 75, 2)],
      [atBroker(CE, 75)],
    );
    expect(differences).toEqual([
      { symbol: CE, optionPilot: 225, broker: 75, action: 'closed', closeIds: ['new', 'mid'] },
    ]);
  });

  it('reports what the broker holds beyond OptionPilot, and a short, without adopting either', () => {
    expect(comparePositions([held('1', 75, 1)], [atBroker(CE, 150), atBroker(PE, -75)])).toEqual([
      { symbol: CE, optionPilot: 75, broker: 150, action: 'not_managed', closeIds: [] },
      { symbol: PE, optionPilot: 0, broker: -75, action: 'not_managed', closeIds: [] },
    ]);
  });

  it('closing whole positions below the broker leaves the rest reported as the broker’s own', () => {
    expect(comparePositions([held('a', 150, 1), held('b', 150, 2)], [atBroker(CE, 75)])).toEqual([
      { symbol: CE, optionPilot: 300, broker: 75, action: 'closed', closeIds: ['b', 'a'] },
      { symbol: CE, optionPilot: 0, broker: 75, action: 'not_managed', closeIds: [] },
    ]);
  });

  it('ignores what is not a NIFTY option (the trader’s shares, other underlyings)', () => {
    expect(comparePositions([], [atBroker('INFY', 10), atBroker('BANKNIFTY27JAN2650000CE', 30)])).toEqual([]);
  });

  it('property: after the closes OptionPilot never holds more than the broker, and closes no more than it must', () => {
    const position = fc.record({
      symbol: fc.constantFrom(CE, PE),
      lots: fc.integer({ min: 1, max: 4 }),
      openedAt: fc.integer({ min: 0, max: 1_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(position, { maxLength: 6 }),
        fc.dictionary(fc.constantFrom(CE, PE), fc.integer({ min: -4, max: 12 })),
        (mine, broker) => {
          const heldPositions = mine.map((p, i) => held(String(i), p.lots * 75, p.openedAt, p.symbol));
          const reported = Object.entries(broker).map(([symbol, lots]) => atBroker(symbol, lots * 75));
          const differences = comparePositions(heldPositions, reported);
          for (const symbol of [CE, PE]) {
            const closed = new Set(
              differences.filter((d) => d.symbol === symbol).flatMap((d) => [...d.closeIds]),
            );
            const kept = heldPositions.filter((p) => p.symbol === symbol && !closed.has(p.positionId));
            const keptQty = kept.reduce((sum, p) => sum + p.quantity, 0);
            const brokerQty = (broker[symbol] ?? 0) * 75;
            expect(keptQty).toBeLessThanOrEqual(Math.max(0, brokerQty));
            // Each close was needed: putting back the last one closed would hold more than the broker.
            const lastClosed = heldPositions.find((p) => p.positionId === [...closed].at(-1));
            if (lastClosed !== undefined)
              expect(keptQty + lastClosed.quantity).toBeGreaterThan(Math.max(0, brokerQty));
            // Agreement is silent; every disagreement is reported.
            const agreed = keptQty === brokerQty && closed.size === 0;
            expect(differences.some((d) => d.symbol === symbol)).toBe(!agreed);
          }
        },
      ),
    );
  });
});

describe('confirmedDifferences', () => {
  it('keeps only what both looks saw, as the second look saw it', () => {
    const first = comparePositions([held('1', 75, 1)], []);
    const second = comparePositions([held('1', 75, 1)], [atBroker(CE, 75), atBroker(PE, 75)]);
    expect(confirmedDifferences(first, second)).toEqual([]);
    const again = comparePositions([held('1', 75, 1)], []);
    expect(confirmedDifferences(first, again)).toEqual(again);
  });
});
