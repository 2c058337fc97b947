import { DEFAULT_STRATEGY_PARAMS, STRATEGY_NAME, sessionFacts } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import { defaultControls, type StrategySet } from './controls';
import { createMarketContext, marketSessionFacts } from './market';
import { presentStrategyInfo } from './strategyInfo';

const NOW = Date.parse('2026-11-23T06:00:00Z');
const market = createMarketContext({ mode: 'market', now: NOW });
const session = marketSessionFacts(market, '15:15', NOW);

const controls = defaultControls('OPTIONPILOT');
const set: StrategySet = {
  controls: { ...controls, params: { ...controls.params, tradingEnabled: false } },
  strategies: [
    { id: '1', name: 'default', kind: 'consecutive_breakout', params: controls.params },
    {
      id: '9',
      name: 'Puts only',
      kind: 'consecutive_breakout',
      params: {
        ...DEFAULT_STRATEGY_PARAMS,
        callEnabled: false,
        stopLoss: 12,
        interval: 5,
        tradingEnabled: true,
      },
    },
  ],
  defaultId: '1',
};

describe('presentStrategyInfo', () => {
  it("shows the strategy a trader follows with its own parameters, under the admin's master switch", () => {
    const info = presentStrategyInfo(set, '9', { mode: 'market', session });
    expect(info.name).toBe(`${STRATEGY_NAME}: Puts only`);
    expect(info.intervalMinutes).toBe(5);
    expect(info.params).toMatchObject({ stopLoss: 12, callEnabled: false, tradingEnabled: false });
    expect(info.rules.join(' ')).toMatch(/5-minute candle/);
    expect(info.rules.join(' ')).not.toMatch(/Demo mode/);
  });

  it('falls back to the default strategy for no choice or a strategy no longer offered, and notes demo mode', () => {
    for (const id of [undefined, '42']) {
      const info = presentStrategyInfo(set, id, { mode: 'always', session });
      expect(info.name).toBe(STRATEGY_NAME);
      expect(info.params.stopLoss).toBe(controls.params.stopLoss);
      expect(info.rules.at(-1)).toMatch(/Demo mode/);
    }
  });

  it("takes the day's times from the engine's sessionFacts, with the admins' square-off", () => {
    const facts = marketSessionFacts(market, '15:20', NOW);
    expect(facts).toEqual(sessionFacts(market.data, { squareOff: '15:20' }, '2026-11-23'));
    const info = presentStrategyInfo(set, undefined, { mode: 'market', session: facts });
    expect(info.session).toEqual({ mode: 'market', ...facts });
    expect(info.session).toMatchObject({ marketClose: '15:30', entryEnd: '15:00', squareOff: '15:20' });
    expect(info.params.squareOffTime).toBe('15:20');
    const text = info.rules.join(' ');
    expect(text).toContain(`at or before ${facts.entryEnd} IST`);
    expect(text).toContain(`closed at ${facts.squareOff} IST`);
    expect(text).toContain(`between ${facts.marketOpen} and ${facts.marketClose} IST`);
  });
});
