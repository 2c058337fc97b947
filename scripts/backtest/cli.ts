// The backtest CLI's arguments: a single backtest's flags (the strategy's settings through the shared parser, so the
// rules are the admin controls'), a strategy file, or a sweep's grid and tick source. Mistakes are UsageErrors
// (exit code 2).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  DEFAULT_BACKTEST_CAPITAL,
  DEFAULT_STRATEGY_PARAMS,
  parseStrategyParams,
  parseSweepGrid,
  STRATEGY_SETTING_NAMES,
  StrategyParamsError,
  SweepGridError,
  type GridSet,
  type StrategyParams,
} from '@optionpilot/engine';
import type { SweepTickSource } from '@optionpilot/engine/backtest/sweepWorker';

export const USAGE = `usage: npm run backtest -- --input FILE [options]

  --input FILE          replay CSV: timestamp,price[,volume] or timestamp,open,high,low,close[,volume] (1-minute)
  --interval 1m|3m|5m|15m   candle interval (default ${DEFAULT_STRATEGY_PARAMS.interval}m)
  --consecutive N       consecutive candles of a setup, 1–20 (default ${DEFAULT_STRATEGY_PARAMS.consecutiveCandles})
  --min-move M          minimum candle body, index points (default ${DEFAULT_STRATEGY_PARAMS.minMovement})
  --entry-offset E      trigger distance beyond the setup candle, index points (default ${DEFAULT_STRATEGY_PARAMS.entryOffset})
  --stop-loss S         stop distance below the entry premium, premium points (default ${DEFAULT_STRATEGY_PARAMS.stopLoss})
  --target T            target distance above the entry premium, premium points (default ${DEFAULT_STRATEGY_PARAMS.target})
  --iv PCT              implied volatility for every premium, percent (default 14)
  --session market|always   market: NSE sessions and holidays (default); always: every instant trades
  --lots N              lots per trade (default 1; lot size from engine/data/nse-contracts.json)
  --capital RUPEES      notional capital for the drawdown percentage (default ${DEFAULT_BACKTEST_CAPITAL})
  --strategy-file FILE  the strategy's parameter set as JSON: what GET /api/strategy returns (the white-box panel's
                        parameters), or a flat object of them; the flags above override it
  --strict              refuse a file with a row earlier than the one before (default: drop and count it, as the
                        live feed drops an out-of-order tick)
  --json                print only one JSON document {candles, signals, trades, metrics} on stdout
  --help                show this help

usage: npm run backtest -- --sweep GRID (--input FILE | --generate YEAR) [--workers N] [--json | --csv] [--strict]

  --sweep GRID          a JSON grid of parameter sets: {"base": {…}, "vary": {"stopLoss": [15, 20], …}, "sets": [{…}]}
                        (settings: interval, consecutiveCandles, minMovement, entryOffset, stopLoss, target, lots,
                        trailing, targetMode, iv, session, capital); every set runs, ranked by net P&L
  --generate YEAR       instead of --input: generated 1-second ticks for YEAR (or FROM..TO, dates YYYY-MM-DD)
  --workers N           worker threads (default: the machine's cores)
  --json | --csv        every set, ranked, as one JSON document or as CSV rows on stdout`;

const DEFAULT_IV_PCT = 14;
const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A command-line mistake: printed with the usage (not after a grid file's issues), exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

export interface CliOptions {
  readonly input: string;
  readonly params: StrategyParams;
  readonly iv: number;
  readonly session: 'market' | 'always';
  readonly lots: number;
  readonly capital: number;
  readonly json: boolean;
  readonly strict: boolean;
}

/** Flag → the strategy setting it sets, so range errors from the shared params parser name the flag. */
const STRATEGY_FLAGS = {
  interval: 'interval',
  consecutive: 'consecutiveCandles',
  'min-move': 'minMovement',
  'entry-offset': 'entryOffset',
  'stop-loss': 'stopLoss',
  target: 'target',
} as const satisfies Record<string, keyof StrategyParams>;

export function parseCli(argv: readonly string[]): CliOptions | SweepCliOptions | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        input: { type: 'string' },
        interval: { type: 'string' },
        consecutive: { type: 'string' },
        'min-move': { type: 'string' },
        'entry-offset': { type: 'string' },
        'stop-loss': { type: 'string' },
        target: { type: 'string' },
        iv: { type: 'string' },
        session: { type: 'string' },
        lots: { type: 'string' },
        capital: { type: 'string' },
        json: { type: 'boolean' },
        strict: { type: 'boolean' },
        'strategy-file': { type: 'string' },
        sweep: { type: 'string' },
        generate: { type: 'string' },
        workers: { type: 'string' },
        csv: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return 'help';
  if (values.sweep !== undefined) return parseSweepCli(values);
  for (const flag of ['generate', 'workers', 'csv']) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} is for sweeps (--sweep GRID)`);
  }
  const str = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const input = str('input');
  if (input === undefined || input.trim() === '') throw new UsageError('--input FILE is required');

  const number = (name: string, fallback: number, check: (n: number) => boolean, what: string): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const value = Number(raw.trim());
    if (!DECIMAL_RE.test(raw.trim()) || !check(value))
      throw new UsageError(`--${name} must be ${what}, got "${raw}"`);
    return value;
  };

  // Strategy settings go through the same parser as the admin controls, so the rules are the live ones.
  const strategyFile = str('strategy-file');
  const settings: Record<string, string> = strategyFile === undefined ? {} : readStrategyFile(strategyFile);
  for (const [flag, key] of Object.entries(STRATEGY_FLAGS)) {
    const raw = str(flag);
    if (raw === undefined) continue;
    if (key !== 'interval' && !DECIMAL_RE.test(raw.trim()))
      throw new UsageError(`--${flag} must be a number, got "${raw}"`);
    settings[STRATEGY_SETTING_NAMES[key]] = raw;
  }
  let params: StrategyParams;
  try {
    params = parseStrategyParams(settings);
  } catch (error) {
    if (!(error instanceof StrategyParamsError)) throw error;
    const flagOf = (setting: string) =>
      Object.entries(STRATEGY_FLAGS).find(([, key]) => STRATEGY_SETTING_NAMES[key] === setting)?.[0] ??
      setting;
    // The shared parser words each issue as "<setting> must be …"; say the flag the user typed instead.
    const messages = error.issues.map((i) => {
      const flag = `--${flagOf(i.setting)}`;
      return i.message.startsWith(i.setting)
        ? `${flag}${i.message.slice(i.setting.length)}`
        : `${flag}: ${i.message}`;
    });
    throw new UsageError(messages.join('\n'));
  }

  const session = str('session') ?? 'market';
  if (session !== 'market' && session !== 'always') {
    throw new UsageError(`--session must be "market" or "always", got "${session}"`);
  }
  return {
    input,
    params,
    iv:
      number('iv', DEFAULT_IV_PCT, (n) => n > 0 && n <= 500, 'a percentage greater than 0 and at most 500') /
      100,
    session,
    lots: number(
      'lots',
      1,
      (n) => Number.isInteger(n) && n >= 1 && n <= 10_000,
      'a whole number from 1 to 10000',
    ),
    capital: number('capital', DEFAULT_BACKTEST_CAPITAL, (n) => n > 0, 'a positive amount in rupees'),
    json: values.json === true,
    strict: values.strict === true,
  };
}

/** Parameter names a strategy file may hold → the admin-control setting each one is. */
const FILE_KEYS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(STRATEGY_SETTING_NAMES).map(([key, setting]) => [key, setting])),
  ...Object.fromEntries(Object.values(STRATEGY_SETTING_NAMES).map((setting) => [setting, setting])),
  intervalMinutes: STRATEGY_SETTING_NAMES.interval,
};
/** Keys of GET /api/strategy that are not parameters of a backtest. */
const IGNORED_FILE_KEYS = new Set(['squareOffTime']);

/** Reads a strategy file into admin-control settings (strings), the form the shared parser takes. */
function readStrategyFile(path: string): Record<string, string> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--strategy-file ${path}: ${(error as Error).message}`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(json)) throw new UsageError(`--strategy-file ${path}: expected a JSON object`);
  const flat: Record<string, unknown> = isObject(json['params'])
    ? {
        ...json['params'],
        ...(json['intervalMinutes'] === undefined ? {} : { intervalMinutes: json['intervalMinutes'] }),
      }
    : json;
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(flat)) {
    if (IGNORED_FILE_KEYS.has(key)) continue;
    const setting = FILE_KEYS[key];
    if (setting === undefined) throw new UsageError(`--strategy-file ${path}: unknown parameter "${key}"`);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new UsageError(`--strategy-file ${path}: "${key}" must be a number, true/false or a string`);
    }
    settings[setting] = String(value);
  }
  return settings;
}

export interface SweepCliOptions {
  readonly sweep: string;
  readonly sets: readonly GridSet[];
  readonly source: SweepTickSource;
  /** what the report calls the source */
  readonly sourceName: string;
  readonly workers: number | undefined;
  readonly format: 'table' | 'json' | 'csv';
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** Flags of a single backtest that a sweep takes from its grid instead. */
const SINGLE_ONLY_FLAGS = [
  ...Object.keys(STRATEGY_FLAGS),
  'iv',
  'session',
  'lots',
  'capital',
  'strategy-file',
] as const;

function parseSweepCli(values: Record<string, string | boolean | undefined>): SweepCliOptions {
  for (const flag of SINGLE_ONLY_FLAGS) {
    if (values[flag] !== undefined) {
      throw new UsageError(
        `--${flag} cannot be used with --sweep: put the setting in the grid (its "base", "vary" or "sets")`,
      );
    }
  }
  const grid = String(values.sweep);
  const input = typeof values.input === 'string' ? values.input : undefined;
  const generate = typeof values.generate === 'string' ? values.generate.trim() : undefined;
  if ((input === undefined) === (generate === undefined)) {
    throw new UsageError('--sweep needs exactly one of --input FILE and --generate YEAR');
  }
  if (values.json === true && values.csv === true)
    throw new UsageError('--json and --csv cannot be used together');
  let workers: number | undefined;
  if (typeof values.workers === 'string') {
    workers = Number(values.workers.trim());
    if (!/^\d+$/.test(values.workers.trim()) || workers < 1 || workers > 64) {
      throw new UsageError(`--workers must be a whole number from 1 to 64, got "${values.workers}"`);
    }
  }
  let source: SweepTickSource;
  let sourceName: string;
  if (generate !== undefined) {
    const [from, to] = /^\d{4}$/.test(generate)
      ? [`${generate}-01-01`, `${generate}-12-31`]
      : generate.split('..').map((d) => d.trim());
    if (from === undefined || to === undefined || !DATE_RE.test(from) || !DATE_RE.test(to) || to < from) {
      throw new UsageError(
        `--generate must be a year (2026) or FROM..TO dates (2026-01-05..2026-03-31), got "${generate}"`,
      );
    }
    source = { kind: 'generated', from, to, seed: Number(from.slice(0, 4)) };
    sourceName = `generated 1-second ticks ${from} → ${to}`;
  } else {
    source = { kind: 'csv', path: input as string, strict: values.strict === true };
    sourceName = input as string;
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(grid, 'utf8'));
  } catch (error) {
    throw new UsageError(`--sweep ${grid}: ${(error as Error).message}`, false);
  }
  let sets: GridSet[];
  try {
    sets = parseSweepGrid(json);
  } catch (error) {
    if (!(error instanceof SweepGridError)) throw error;
    throw new UsageError(error.issues.map((issue) => `${grid}: ${issue}`).join('\n'), false);
  }
  return {
    sweep: grid,
    sets,
    source,
    sourceName,
    workers,
    format: values.json === true ? 'json' : values.csv === true ? 'csv' : 'table',
  };
}
