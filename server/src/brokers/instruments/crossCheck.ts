// Compares a broker's master with the engine's own contract data (expiry calendar, lot sizes, strike step). The
// engine's data is a dated table kept by hand; the exchange changes lot sizes and expiry days by circular, so a
// mismatch is worth a warning — and for order quantity the broker's master wins (it is what the exchange accepts).
import type { ExpiryCalendar } from '@optionpilot/engine';
import type { BrokerInstrument } from '../types';

export type EngineContracts = Pick<ExpiryCalendar, 'strikeStep' | 'weeklyExpiry' | 'lotSize'>;

export interface MasterMismatch {
  kind: 'expiry' | 'lot_size' | 'strike_step';
  expiry: string;
  master: string | number;
  engine: string | number;
}

/** Every disagreement between the master's NIFTY options and the engine's data, one per expiry and kind. */
export function crossCheckMaster(
  instruments: readonly BrokerInstrument[],
  engine: EngineContracts,
): MasterMismatch[] {
  const byExpiry = new Map<string, BrokerInstrument[]>();
  for (const i of instruments) byExpiry.set(i.expiry, [...(byExpiry.get(i.expiry) ?? []), i]);
  const mismatches: MasterMismatch[] = [];
  for (const [expiry, list] of [...byExpiry].sort(([a], [b]) => a.localeCompare(b))) {
    const engineExpiry = engine.weeklyExpiry(expiry);
    if (engineExpiry !== expiry)
      mismatches.push({ kind: 'expiry', expiry, master: expiry, engine: engineExpiry });
    const lotSizes = [...new Set(list.map((i) => i.lotSize))];
    const engineLot = engine.lotSize(expiry);
    for (const lot of lotSizes) {
      if (lot !== engineLot) mismatches.push({ kind: 'lot_size', expiry, master: lot, engine: engineLot });
    }
    // NIFTY lists 50-point strikes near the money and wider ones far out: the smallest gap is the step.
    const strikes = [...new Set(list.map((i) => i.strike))].sort((a, b) => a - b);
    const gaps = strikes.slice(1).map((s, k) => s - (strikes[k] ?? s));
    const step = gaps.length > 0 ? Math.min(...gaps) : engine.strikeStep;
    if (step !== engine.strikeStep) {
      mismatches.push({ kind: 'strike_step', expiry, master: step, engine: engine.strikeStep });
    }
  }
  return mismatches;
}
