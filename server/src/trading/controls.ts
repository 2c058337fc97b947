// The admin controls and the strategies as the runtime runs them. The admin controls of the spec (tradingEnabled,
// putEnabled, callEnabled, stopLoss, target, minMovement, entryOffset, consecutiveCandles, candleInterval) are
// the default (built-in) strategy's parameters; every other active row of `strategies` is a strategy of its own.
// Loaded when the server starts and when an admin changes something (`reloadControls`), never on a polled GET.
import {
  DEFAULT_STRATEGY_PARAMS,
  STRATEGY_SETTING_NAMES,
  parseStrategyParams,
  type IntervalMinutes,
  type StrategyDefinition,
  type StrategyParams,
} from '@optionpilot/engine';
import { ADMIN_CONTROL_SCHEMA, type AdminControlName, type AdminControlValues } from '../contract/admin';
import { adminControlValues, listStrategies, type Db, type StrategyRow } from '../db';
import type { Logger } from '../logger';

const DEFAULT_SQUARE_OFF = '15:15';
const SEBI_MAX_ORDERS_PER_SECOND = 10;

/** Everything the admin controls decide. */
export interface TradingControls {
  /** the default strategy's parameters; `tradingEnabled` is also the master switch of every strategy */
  readonly params: StrategyParams;
  readonly squareOffTime: string;
  readonly maxOrdersPerSecond: number;
  readonly algoTag: string;
}

/** The running strategy set: the default one first. */
export interface StrategySet {
  readonly controls: TradingControls;
  readonly strategies: readonly StrategyDefinition[];
  /** the id (strategies row id, as text) of the default strategy */
  readonly defaultId: string;
}

/**
 * Parses the admin controls with the one schema the admin route validates them with (`ADMIN_CONTROL_SCHEMA`), so the
 * runtime and the route cannot disagree; a value that fails it (written by hand, or by an older version) keeps the
 * previous one and is logged.
 */
export function parseControls(
  values: Readonly<Record<string, string>>,
  previous: TradingControls,
  log: Pick<Logger, 'warn'>,
): TradingControls {
  function read<K extends AdminControlName>(name: K): AdminControlValues[K] | undefined {
    const raw = values[name];
    if (raw === undefined) return undefined;
    const parsed = ADMIN_CONTROL_SCHEMA[name].safeParse(raw);
    if (parsed.success) return parsed.data as AdminControlValues[K];
    log.warn({ setting: name, value: raw }, `invalid ${name} in admin_controls; keeping the previous value`);
    return undefined;
  }
  const p = previous.params;
  const params: StrategyParams = {
    consecutiveCandles: read('consecutiveCandles') ?? p.consecutiveCandles,
    minMovement: read('minMovement') ?? p.minMovement,
    entryOffset: read('entryOffset') ?? p.entryOffset,
    stopLoss: read('stopLoss') ?? p.stopLoss,
    target: read('target') ?? p.target,
    callEnabled: read('callEnabled') ?? p.callEnabled,
    putEnabled: read('putEnabled') ?? p.putEnabled,
    tradingEnabled: read('tradingEnabled') ?? p.tradingEnabled,
    interval: (read('candleInterval') ?? p.interval) as IntervalMinutes,
  };
  return {
    params,
    squareOffTime: read('squareOffTime') ?? previous.squareOffTime,
    maxOrdersPerSecond: read('maxOrdersPerSecond') ?? previous.maxOrdersPerSecond,
    algoTag: read('algoTag') ?? previous.algoTag,
  };
}

/** The controls before anything is loaded. */
export function defaultControls(algoTag: string): TradingControls {
  return {
    params: DEFAULT_STRATEGY_PARAMS,
    squareOffTime: DEFAULT_SQUARE_OFF,
    maxOrdersPerSecond: SEBI_MAX_ORDERS_PER_SECOND,
    algoTag,
  };
}

/** A strategy row's own parameters (JSON) over the defaults; its type picks the sides. */
export function strategyParamsOf(row: StrategyRow, global: StrategyParams): StrategyParams {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.params);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      stored = parsed as Record<string, unknown>;
    }
  } catch {
    // An unreadable row runs on the defaults below; parseStrategyParams names nothing wrong with them.
  }
  const settings: Record<string, string> = {};
  for (const [key, setting] of Object.entries(STRATEGY_SETTING_NAMES)) {
    const value = stored[key] ?? stored[setting];
    if (typeof value === 'number' || typeof value === 'string') settings[setting] = String(value);
  }
  const params = parseStrategyParams(settings);
  return {
    ...params,
    callEnabled: row.type !== 'PE' && global.callEnabled,
    putEnabled: row.type !== 'CE' && global.putEnabled,
    tradingEnabled: global.tradingEnabled,
  };
}

/** Loads the controls and the active strategies. */
export async function loadStrategySet(
  db: Db,
  previous: TradingControls,
  log: Pick<Logger, 'warn'>,
): Promise<StrategySet> {
  const controls = parseControls(await adminControlValues(db), previous, log);
  const rows = await listStrategies(db, { activeOnly: false });
  const builtIn = rows.find((r) => r.built_in);
  const defaultId = String(builtIn?.id ?? 'default');
  const strategies: StrategyDefinition[] = [
    {
      id: defaultId,
      name: builtIn?.name ?? 'Default',
      kind: 'consecutive_breakout',
      params: controls.params,
    },
  ];
  for (const row of rows) {
    if (row.built_in || !row.active) continue;
    try {
      strategies.push({
        id: String(row.id),
        name: row.name,
        kind: 'consecutive_breakout',
        params: strategyParamsOf(row, controls.params),
      });
    } catch (err) {
      log.warn({ err, strategyId: row.id }, 'strategy with invalid parameters is not run');
    }
  }
  return { controls, strategies, defaultId };
}
