import { DEFAULT_STRATEGY_PARAMS, STRATEGY_NAME } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import { defaultControls, type StrategySet } from './controls';
import { presentStrategyInfo } from './strategyInfo';

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
    const info = presentStrategyInfo(set, '9', { alwaysOpen: false });
    expect(info.name).toBe(`${STRATEGY_NAME}: Puts only`);
    expect(info.intervalMinutes).toBe(5);
    expect(info.params).toMatchObject({ stopLoss: 12, callEnabled: false, tradingEnabled: false });
    expect(info.rules.join(' ')).toMatch(/5-minute candle/);
    expect(info.rules.join(' ')).not.toMatch(/Demo mode/);
  });

  it('falls back to the default strategy for no choice or a strategy no longer offered, and notes demo mode', () => {
    for (const id of [undefined, '42']) {
      const info = presentStrategyInfo(set, id, { alwaysOpen: true });
      expect(info.name).toBe(STRATEGY_NAME);
      expect(info.params.stopLoss).toBe(controls.params.stopLoss);
      expect(info.rules.at(-1)).toMatch(/Demo mode/);
    }
  });
});
