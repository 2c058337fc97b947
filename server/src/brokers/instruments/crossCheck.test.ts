import { describe, expect, it } from 'vitest';
import type { BrokerInstrument } from '../types';
import { crossCheckMaster, type EngineContracts } from './crossCheck';

// The engine's view: Tuesday weekly expiries, 50-point strikes, 65 per lot.
const engine: EngineContracts = {
  strikeStep: 50,
  weeklyExpiry: (date) => (date === '2026-01-08' ? '2026-01-13' : date),
  lotSize: () => 65,
};

const option = (expiry: string, strike: number, lotSize = 65): BrokerInstrument => ({
  token: `${expiry}-${strike}`,
  tradingSymbol: `NIFTY${strike}CE`,
  expiry,
  strike,
  optionType: 'CE',
  lotSize,
  tickSize: 0.05,
});

describe('crossCheckMaster', () => {
  it('finds nothing when the master agrees (wider far strikes are fine)', () => {
    const master = [option('2026-01-06', 24000), option('2026-01-06', 24050), option('2026-01-06', 24200)];
    expect(crossCheckMaster(master, engine)).toEqual([]);
  });

  it('reports a lot size, strike step and expiry that differ, naming both values', () => {
    const master = [
      option('2026-01-06', 24000, 75),
      option('2026-01-06', 24100, 75),
      option('2026-01-08', 24000),
      option('2026-01-08', 24050),
    ];
    expect(crossCheckMaster(master, engine)).toEqual([
      { kind: 'lot_size', expiry: '2026-01-06', master: 75, engine: 65 },
      { kind: 'strike_step', expiry: '2026-01-06', master: 100, engine: 50 },
      { kind: 'expiry', expiry: '2026-01-08', master: '2026-01-08', engine: '2026-01-13' },
    ]);
  });
});
