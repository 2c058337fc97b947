import { DEFAULT_STRATEGY_PARAMS } from '@optionpilot/engine';
import { describe, expect, it, vi } from 'vitest';
import { insertStrategy, setAdminControl, updateStrategy, type StrategyRow } from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { defaultControls, loadStrategySet, parseControls, strategyParamsOf } from './controls';

const quiet = () => ({ warn: vi.fn() });

describe('parseControls', () => {
  it('reads the admin controls as the default strategy, with the admin route’s schema', () => {
    const log = quiet();
    const controls = parseControls(
      {
        stopLoss: '15',
        target: '30',
        callEnabled: 'false',
        maxOrdersPerSecond: '5',
        algoTag: 'MYALGO1',
        squareOffTime: '15:05',
      },
      defaultControls('OPTIONPILOT'),
      log,
    );
    expect(controls.params).toMatchObject({ stopLoss: 15, target: 30, callEnabled: false, putEnabled: true });
    expect(controls).toMatchObject({ maxOrdersPerSecond: 5, algoTag: 'MYALGO1', squareOffTime: '15:05' });
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('keeps the previous value of anything invalid and says so', () => {
    const log = quiet();
    const previous = defaultControls('OPTIONPILOT');
    const controls = parseControls(
      { stopLoss: 'ten', squareOffTime: '25:99', algoTag: 'bad tag!', maxOrdersPerSecond: '50' },
      previous,
      log,
    );
    expect(controls).toEqual(previous);
    // Each bad setting is named; above SEBI's 10 orders a second is refused like any other bad value.
    expect(log.warn).toHaveBeenCalledTimes(4);
    expect(log.warn).toHaveBeenCalledWith({ setting: 'maxOrdersPerSecond', value: '50' }, expect.any(String));
  });
});

describe('strategyParamsOf', () => {
  const row = (type: StrategyRow['type'], params: unknown): StrategyRow => ({
    id: 5,
    code: 'x',
    name: 'x',
    description: 'x',
    type,
    active: true,
    built_in: false,
    params: JSON.stringify(params),
    created_at: 0,
    updated_at: 0,
  });

  it('takes the row’s own parameters, its sides from its type, the master switch from the controls', () => {
    const params = strategyParamsOf(row('PE', { consecutiveCandles: 4, stopLoss: 12, interval: 5 }), {
      ...DEFAULT_STRATEGY_PARAMS,
      tradingEnabled: false,
    });
    expect(params).toMatchObject({
      consecutiveCandles: 4,
      stopLoss: 12,
      interval: 5,
      callEnabled: false,
      putEnabled: true,
      tradingEnabled: false,
    });
  });

  it('refuses parameters out of range', () => {
    expect(() =>
      strategyParamsOf(row('BOTH', { consecutiveCandles: 99 }), DEFAULT_STRATEGY_PARAMS),
    ).toThrow();
  });
});

describe.each(testDialects())('loadStrategySet (%s)', (dialect) => {
  const db = useTestDatabase(dialect);

  it('runs the built-in strategy on the admin controls plus every active, valid strategy row', async () => {
    await setAdminControl(db(), 'stopLoss', '18', null);
    const extra = await insertStrategy(db(), {
      code: 'calls-5m',
      name: 'Calls on 5 minutes',
      description: 'x',
      type: 'CE',
      params: { interval: 5, consecutiveCandles: 2 },
    });
    const broken = await insertStrategy(db(), {
      code: 'broken',
      name: 'Broken',
      description: 'x',
      params: { consecutiveCandles: 0 },
    });
    const off = await insertStrategy(db(), { code: 'off', name: 'Off', description: 'x', params: {} });
    await updateStrategy(db(), off.id, { active: false });

    const log = quiet();
    const set = await loadStrategySet(db(), defaultControls('OPTIONPILOT'), log);
    expect(set.strategies[0]).toMatchObject({ id: set.defaultId, params: { stopLoss: 18 } });
    expect(set.strategies.map((s) => s.id)).toEqual([set.defaultId, String(extra.id)]);
    expect(set.strategies[1]?.params).toMatchObject({
      interval: 5,
      consecutiveCandles: 2,
      putEnabled: false,
    });
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ strategyId: broken.id }),
      expect.any(String),
    );
  });
});
