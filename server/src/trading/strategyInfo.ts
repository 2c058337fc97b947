// GET /api/strategy's answer and the `strategy:info` event: the white-box description of the strategy a trader
// follows (the default one unless they chose another in Trading Settings), its rules in words with the parameters
// the runtime uses now and the trading day's times. The master switch (tradingEnabled) is the admin's for every
// strategy.
import {
  describeStrategy,
  STRATEGY_NAME,
  type SessionFacts,
  type StrategyDefinition,
} from '@optionpilot/engine';
import type { StrategyInfoDto } from '../contract';
import { presentSessionFacts } from '../presenters/session';
import type { StrategySet } from './controls';

/** The strategy `strategyId` names in `set` (the default when absent or no longer active). */
export function strategyOfSet(
  set: StrategySet,
  strategyId: string | undefined,
): StrategyDefinition | undefined {
  return (
    set.strategies.find((s) => s.id === strategyId) ?? set.strategies.find((s) => s.id === set.defaultId)
  );
}

export function presentStrategyInfo(
  set: StrategySet,
  strategyId: string | undefined,
  options: {
    /** `always`: the demo calendar (every moment in session, no square-off) */
    mode: 'always' | 'market';
    /** the day's times with the square-off of `set.controls` (market.ts `marketSessionFacts`) */
    session: SessionFacts;
  },
): StrategyInfoDto {
  const strategy = strategyOfSet(set, strategyId);
  const isDefault = strategy === undefined || strategy.id === set.defaultId;
  const params = {
    ...(strategy?.params ?? set.controls.params),
    tradingEnabled: set.controls.params.tradingEnabled,
  };
  const alwaysOpen = options.mode === 'always';
  const rules = describeStrategy(params, { session: options.session, alwaysOpen });
  // The user's trading-hours setting is the server's rule, not the engine's: say that demo mode ignores it.
  if (alwaysOpen) rules.push('Demo mode: the trading hours in your Settings are not applied.');
  return {
    name: isDefault ? STRATEGY_NAME : `${STRATEGY_NAME}: ${strategy.name}`,
    intervalMinutes: params.interval,
    rules,
    session: presentSessionFacts(options.mode, options.session),
    params: {
      consecutiveCandles: params.consecutiveCandles,
      minMovement: params.minMovement,
      entryOffset: params.entryOffset,
      stopLoss: params.stopLoss,
      target: params.target,
      callEnabled: params.callEnabled,
      putEnabled: params.putEnabled,
      tradingEnabled: params.tradingEnabled,
      squareOffTime: options.session.squareOff,
    },
  };
}
