import type { BrokerPosition } from '../execution/broker';
import { parseOptionSymbol } from '../instruments/optionSymbol';

/** A live position OptionPilot holds, as far as the comparison needs it. */
export interface HeldPosition {
  readonly positionId: string;
  readonly symbol: string;
  readonly quantity: number;
  /** epoch ms of the entry: the newest positions are the first taken off when the broker holds less */
  readonly openedAt: number;
}

/**
 * Where the broker's net position in a NIFTY option differs from what OptionPilot holds. The broker wins:
 * - `closed`: OptionPilot held more than the broker (sold by hand, or squared off by the broker's risk desk); the
 *   positions in `closeIds` are closed in OptionPilot, newest first, until it holds no more than the broker;
 * - `not_managed`: the broker holds more than OptionPilot (bought by hand, or a position OptionPilot already
 *   closed) or is short: reported, never adopted — OptionPilot does not trade what it did not open.
 */
export interface PositionDifference {
  readonly symbol: string;
  /** units OptionPilot held before the check */
  readonly optionPilot: number;
  /** the broker's signed net units */
  readonly broker: number;
  readonly action: 'closed' | 'not_managed';
  /** OptionPilot's positions to close (`closed` only) */
  readonly closeIds: readonly string[];
}

/**
 * Compares OptionPilot's live positions of one account with the broker's net positions. Only NIFTY options count:
 * whatever else the trader holds at the broker is not OptionPilot's business.
 */
export function comparePositions(
  held: readonly HeldPosition[],
  atBroker: readonly BrokerPosition[],
): PositionDifference[] {
  const brokerNet = new Map<string, number>();
  for (const position of atBroker) {
    if (parseOptionSymbol(position.symbol)?.underlying !== 'NIFTY') continue;
    brokerNet.set(position.symbol, (brokerNet.get(position.symbol) ?? 0) + position.quantity);
  }
  const bySymbol = new Map<string, HeldPosition[]>();
  for (const position of held) {
    bySymbol.set(position.symbol, [...(bySymbol.get(position.symbol) ?? []), position]);
  }
  const symbols = [...new Set([...bySymbol.keys(), ...brokerNet.keys()])].sort();
  const differences: PositionDifference[] = [];
  for (const symbol of symbols) {
    const mine = bySymbol.get(symbol) ?? [];
    const optionPilot = mine.reduce((sum, p) => sum + p.quantity, 0);
    const broker = brokerNet.get(symbol) ?? 0;
    if (optionPilot === broker) continue;
    let left = optionPilot;
    if (optionPilot > Math.max(0, broker)) {
      const closeIds: string[] = [];
      for (const position of [...mine].sort((a, b) => b.openedAt - a.openedAt)) {
        if (left <= Math.max(0, broker)) break;
        closeIds.push(position.positionId);
        left -= position.quantity;
      }
      differences.push({ symbol, optionPilot, broker, action: 'closed', closeIds });
    }
    // More at the broker (or a short there, or what closing whole positions left below it): the broker's alone.
    if (left !== broker) {
      differences.push({ symbol, optionPilot: left, broker, action: 'not_managed', closeIds: [] });
    }
  }
  return differences;
}

/** The differences of `first` that a second look (`second`) confirms, as the second look saw them. */
export function confirmedDifferences(
  first: readonly PositionDifference[],
  second: readonly PositionDifference[],
): PositionDifference[] {
  const seen = new Set(first.map((d) => `${d.symbol}|${d.action}`));
  return second.filter((d) => seen.has(`${d.symbol}|${d.action}`));
}
