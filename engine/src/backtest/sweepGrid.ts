import { z } from 'zod';
import type { IntervalMinutes } from '../core/types';
import type { TargetMode } from '../risk/positionRisk';
import {
  DEFAULT_STRATEGY_PARAMS,
  parseStrategyParams,
  STRATEGY_SETTING_NAMES,
  StrategyParamsError,
} from '../strategy/params';
import type { StrategyParams } from '../strategy/params';
import { DEFAULT_BACKTEST_CAPITAL } from './sweepPass';
import type { SweepSet } from './sweepPass';

/** Most sets one grid may expand to: a typo like `"lots": [1, …, 1000]` × three more lists is refused, not run. */
export const MAX_SWEEP_SETS = 10_000;

/** Every setting of one sweep set, as a grid file writes it (IV in percent). */
export interface SweepSettings {
  /** candle interval, minutes */
  readonly interval: StrategyParams['interval'];
  readonly consecutiveCandles: number;
  readonly minMovement: number;
  readonly entryOffset: number;
  readonly stopLoss: number;
  readonly target: number;
  readonly lots: number;
  readonly trailing: boolean;
  readonly targetMode: TargetMode;
  /** implied volatility of every premium, percent; sets of different IVs run in different passes */
  readonly iv: number;
  /** `market` (NSE sessions) or `always`; sets of different sessions run in different passes */
  readonly session: 'market' | 'always';
  /** notional capital of the drawdown percentage, rupees */
  readonly capital: number;
}

/** A set's settings where the grid leaves them out: the live defaults, 1 lot, IV 14 %, NSE sessions. */
export const DEFAULT_SWEEP_SETTINGS: SweepSettings = Object.freeze({
  interval: DEFAULT_STRATEGY_PARAMS.interval,
  consecutiveCandles: DEFAULT_STRATEGY_PARAMS.consecutiveCandles,
  minMovement: DEFAULT_STRATEGY_PARAMS.minMovement,
  entryOffset: DEFAULT_STRATEGY_PARAMS.entryOffset,
  stopLoss: DEFAULT_STRATEGY_PARAMS.stopLoss,
  target: DEFAULT_STRATEGY_PARAMS.target,
  lots: 1,
  trailing: true,
  targetMode: 'fixed',
  iv: 14,
  session: 'market',
  capital: DEFAULT_BACKTEST_CAPITAL,
});

/** One set of an expanded grid: its number (from 1, in grid order) and every setting. */
export interface GridSet {
  readonly id: string;
  readonly settings: SweepSettings;
}

/** A grid file that is not valid: `issues` are `field: what is wrong`, each naming the field (`vary.stopLoss[2]`). */
export class SweepGridError extends Error {
  override readonly name = 'SweepGridError';

  constructor(readonly issues: readonly string[]) {
    super(issues.join('\n'));
  }
}

type StrategyKey = 'interval' | 'consecutiveCandles' | 'minMovement' | 'entryOffset' | 'stopLoss' | 'target';

/** A strategy setting is checked by the admin controls' parser, so a sweep accepts exactly the live ranges. */
function strategySetting(key: StrategyKey) {
  return z.number().superRefine((value, ctx) => {
    const setting = STRATEGY_SETTING_NAMES[key];
    try {
      parseStrategyParams({ [setting]: String(value) });
    } catch (error) {
      if (!(error instanceof StrategyParamsError)) throw error;
      // The parser words it "<setting> must be …"; the issue's path already names the field.
      const message = error.issues[0]?.message ?? 'is not valid';
      ctx.addIssue({
        code: 'custom',
        message: message.startsWith(setting) ? message.slice(setting.length + 1) : message,
      });
    }
  });
}

const SETTING_SCHEMAS = {
  // the parser has checked it is one of the intervals
  interval: strategySetting('interval').transform((minutes) => minutes as IntervalMinutes),
  consecutiveCandles: strategySetting('consecutiveCandles'),
  minMovement: strategySetting('minMovement'),
  entryOffset: strategySetting('entryOffset'),
  stopLoss: strategySetting('stopLoss'),
  target: strategySetting('target'),
  lots: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be from 1 to 10000')
    .max(10_000, 'must be from 1 to 10000'),
  trailing: z.boolean(),
  targetMode: z.enum(['fixed', 'dynamic']),
  iv: z.number().gt(0, 'must be a percentage greater than 0').max(500, 'must be a percentage of at most 500'),
  session: z.enum(['market', 'always']),
  capital: z.number().gt(0, 'must be a positive amount in rupees'),
} as const;

type SettingKey = keyof typeof SETTING_SCHEMAS;
const SETTING_KEYS = Object.keys(SETTING_SCHEMAS) as SettingKey[];

const settingsSchema = z.strictObject(SETTING_SCHEMAS).partial();
const varySchema = z
  .strictObject(
    Object.fromEntries(
      SETTING_KEYS.map((key) => [key, z.array(SETTING_SCHEMAS[key]).min(1, 'must list at least one value')]),
    ) as { [K in SettingKey]: z.ZodArray<(typeof SETTING_SCHEMAS)[K]> },
  )
  .partial();
const gridSchema = z.strictObject({
  base: settingsSchema.optional(),
  vary: varySchema.optional(),
  sets: z.array(settingsSchema).min(1, 'must list at least one set').optional(),
});

/** The JSON form of a grid file (docs/backtesting.md, "Parameter sweeps"). */
export type SweepGrid = z.infer<typeof gridSchema>;

function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : `${text === '' ? '' : '.'}${String(part)}`;
  }
  return text;
}

function issueText(issue: z.core.$ZodIssue): string[] {
  if (issue.code === 'unrecognized_keys') {
    const where = pathText(issue.path);
    const known = where === '' ? 'base, vary, sets' : SETTING_KEYS.join(', ');
    return issue.keys.map(
      (key) => `${where === '' ? key : `${where}.${key}`}: unknown field (known: ${known})`,
    );
  }
  const where = pathText(issue.path);
  return [where === '' ? issue.message : `${where}: ${issue.message}`];
}

/**
 * Validates a grid file's JSON and expands it into sets, numbered from 1: `base` (over the defaults) with every
 * combination of the `vary` lists (the last list varies fastest), then each of `sets` over `base`. With neither,
 * the grid is the one set `base`. Throws a {@link SweepGridError} naming every invalid field.
 */
export function parseSweepGrid(json: unknown): GridSet[] {
  const parsed = gridSchema.safeParse(json);
  if (!parsed.success) throw new SweepGridError(parsed.error.issues.flatMap(issueText));
  const { base = {}, vary = {}, sets } = parsed.data;
  const start: SweepSettings = { ...DEFAULT_SWEEP_SETTINGS, ...base };
  // In the file's order (the parsed object has the schema's): the last list written varies fastest.
  const written = Object.keys((json as { vary?: object }).vary ?? {}) as SettingKey[];
  const lists = written.flatMap((key) => {
    const values = vary[key] as readonly unknown[] | undefined;
    return values === undefined ? [] : [[key, values] as const];
  });
  const combinations = lists.reduce((n, [, values]) => n * values.length, 1);
  const count = (lists.length > 0 || sets === undefined ? combinations : 0) + (sets?.length ?? 0);
  if (count > MAX_SWEEP_SETS) {
    throw new SweepGridError([`the grid expands to ${count} sets; at most ${MAX_SWEEP_SETS} are allowed`]);
  }
  const expanded: SweepSettings[] = [];
  if (lists.length > 0 || sets === undefined) {
    for (let i = 0; i < combinations; i += 1) {
      let rest = i;
      const settings: Record<string, unknown> = { ...start };
      for (let k = lists.length - 1; k >= 0; k -= 1) {
        const [key, values] = lists[k] as readonly [SettingKey, readonly unknown[]];
        settings[key] = values[rest % values.length];
        rest = Math.floor(rest / values.length);
      }
      expanded.push(settings as unknown as SweepSettings);
    }
  }
  for (const set of sets ?? []) expanded.push({ ...start, ...set });
  return expanded.map((settings, i) => ({ id: String(i + 1), settings: Object.freeze(settings) }));
}

/** The settings in which the sets of a grid differ, in the order of {@link DEFAULT_SWEEP_SETTINGS}. */
export function variedSettings(sets: readonly GridSet[]): (keyof SweepSettings)[] {
  const first = sets[0]?.settings;
  if (first === undefined) return [];
  return SETTING_KEYS.filter((key) => sets.some((s) => s.settings[key] !== first[key]));
}

/** A grid set as a pass runs it (IV and session belong to the pass). */
export function toSweepSet({ id, settings }: GridSet): SweepSet {
  const params: StrategyParams = Object.freeze({
    ...DEFAULT_STRATEGY_PARAMS,
    interval: settings.interval,
    consecutiveCandles: settings.consecutiveCandles,
    minMovement: settings.minMovement,
    entryOffset: settings.entryOffset,
    stopLoss: settings.stopLoss,
    target: settings.target,
  });
  return {
    id,
    params,
    lots: settings.lots,
    trailing: settings.trailing,
    targetMode: settings.targetMode,
    capital: settings.capital,
  };
}

/** One runtime pass of a sweep: sets that share an IV and a session. */
export interface SweepPassPlan {
  /** IV of the pass, percent */
  readonly iv: number;
  readonly session: 'market' | 'always';
  readonly sets: readonly GridSet[];
}

/**
 * Splits the sets into passes: one group per IV and session (one runtime quotes at one IV, on one calendar), each
 * group split into as many passes as its share of `workers` (at least one), so that the passes of a worker pool
 * take about the same time. Sets that trade more cost more, and a grid's order is not a fair deal: round-robin over
 * two workers would put every `trailing: true` set of `"trailing": [true, false]` in one pass. So each set gets a
 * digit per setting (the index of its value among that setting's values in the group) and the passes are cut from
 * the sets ordered by digit sum modulo the number of passes — a Latin-square split: the sets of any one value of a
 * list spread evenly (within one) whenever another list's length is a multiple of the number of passes.
 */
export function planSweepPasses(sets: readonly GridSet[], workers: number): SweepPassPlan[] {
  const groups = new Map<string, GridSet[]>();
  for (const set of sets) {
    const key = `${set.settings.iv}|${set.settings.session}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [set]);
    else group.push(set);
  }
  const plans: SweepPassPlan[] = [];
  for (const group of groups.values()) {
    const first = (group[0] as GridSet).settings;
    const parts = Math.min(group.length, Math.max(1, Math.round((workers * group.length) / sets.length)));
    const values = new Map<SettingKey, unknown[]>(SETTING_KEYS.map((key) => [key, []]));
    const digitSum = (set: GridSet): number =>
      SETTING_KEYS.reduce((sum, key) => {
        const seen = values.get(key) as unknown[];
        let digit = seen.indexOf(set.settings[key]);
        if (digit < 0) digit = seen.push(set.settings[key]) - 1;
        return sum + digit;
      }, 0);
    const ordered = group
      .map((set, i) => ({ set, i, residue: digitSum(set) % parts }))
      .sort((a, b) => a.residue - b.residue || a.i - b.i)
      .map(({ set }) => set);
    for (let part = 0; part < parts; part += 1) {
      const from = Math.round((part * ordered.length) / parts);
      const to = Math.round(((part + 1) * ordered.length) / parts);
      plans.push({ iv: first.iv, session: first.session, sets: ordered.slice(from, to) });
    }
  }
  return plans;
}
