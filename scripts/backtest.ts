// `npm run backtest -- --input FILE [options]`: backtests the breakout strategy over a replay CSV (ticks or 1-minute
// candles) with option premiums modelled by Black–Scholes, and prints a report (or one JSON document with --json).
// `npm run backtest -- --sweep GRID (--input FILE | --generate YEAR)`: many parameter sets at once, ranked.
// Exit codes: 0 ok, 1 bad input or runtime failure, 2 usage error (also a bad grid file). docs/backtesting.md.
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Presets, SingleBar } from 'cli-progress';
import {
  alwaysOpenCalendar,
  Backtester,
  createCsvTickParser,
  createExchangeCalendar,
  createExpiryCalendar,
  CsvParseError,
  DEFAULT_BACKTEST_CAPITAL,
  DEFAULT_PREMIUM_MODEL,
  DEFAULT_STRATEGY_PARAMS,
  DEFAULT_SWEEP_SETTINGS,
  formatIst,
  istDate,
  parseContractSpecs,
  parseStrategyParams,
  parseSweepGrid,
  STRATEGY_SETTING_NAMES,
  StrategyParamsError,
  SweepGridError,
  variedSettings,
  underlyingSpec,
  type BacktestResult,
  type BacktestTrade,
  type GridSet,
  type StrategyParams,
  type SweepSettings,
  type Tick,
} from '@optionpilot/engine';
import { BUNDLED_CALENDAR_URL, readCalendarFile } from '@optionpilot/engine/calendar/readCalendarFile';
import { runSweep } from '@optionpilot/engine/backtest/sweepPool';
import type { SweepOutcome } from '@optionpilot/engine/backtest/sweepPool';
import type { SweepTickSource } from '@optionpilot/engine/backtest/sweepWorker';
import contractsJson from '../engine/data/nse-contracts.json' with { type: 'json' };

const USAGE = `usage: npm run backtest -- --input FILE [options]

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
/** Inputs above this size (≈ 100k lines) get a progress bar on stderr when stderr is a terminal. */
const PROGRESS_MIN_BYTES = 3_000_000;
const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A command-line mistake: printed with the usage (not after a grid file's issues), exit code 2. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

interface CliOptions {
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

function parseCli(argv: readonly string[]): CliOptions | SweepCliOptions | 'help' {
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

// ---- report ---------------------------------------------------------------------------------------------------

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
const count = new Intl.NumberFormat('en-IN');
const premium = (value: number) => value.toFixed(2);

function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: readonly number[],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (rightAligned.includes(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)]
    .map((l) => `  ${l}`)
    .join('\n');
}

function pairs(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n');
}

function tradeRow(trade: BacktestTrade, n: number): string[] {
  return [
    String(n),
    formatIst(trade.entryTime).replace(' IST', ''),
    formatIst(trade.exitTime).slice(11, 19),
    trade.symbol,
    String(trade.quantity),
    premium(trade.entryPremium),
    premium(trade.exitPremium),
    inr.format(trade.netPnl),
    trade.exitReason,
  ];
}

function humanReport(result: BacktestResult, options: CliOptions): string {
  const { metrics: m, stats, trades, signals } = result;
  const p = options.params;
  const traded = signals.filter((s) => s.traded).length;
  const period =
    stats.firstTickTime === null || stats.lastTickTime === null
      ? 'no ticks'
      : `${formatIst(stats.firstTickTime)} → ${formatIst(stats.lastTickTime)}`;
  const spreadPct = DEFAULT_PREMIUM_MODEL.halfSpread * 100;
  const out: string[] = [
    `OptionPilot backtest — ${options.input}`,
    '',
    pairs([
      ['period', period],
      ['ticks', `${count.format(stats.ticks)} read, ${count.format(stats.ticksUsed)} in session`],
      ['candles', `${count.format(result.candles.length)} × ${p.interval}m`],
      [
        'strategy',
        `N ${p.consecutiveCandles}, M ${p.minMovement} pts, E ${p.entryOffset} pts, SL ${p.stopLoss}, target ${p.target}, session ${options.session}`,
      ],
      [
        'premiums',
        `Black–Scholes, IV ${(options.iv * 100).toFixed(1)}%, r ${DEFAULT_PREMIUM_MODEL.riskFreeRate * 100}%, half-spread ${spreadPct}% (≥ ₹0.05), slippage ${DEFAULT_PREMIUM_MODEL.slippageTicks} tick`,
      ],
      ['size', `${options.lots} lot${options.lots === 1 ? '' : 's'} a trade`],
      [
        'signals',
        `${count.format(stats.signals)} (${count.format(stats.signalsExecuted)} executed, ${count.format(traded)} traded)`,
      ],
    ]),
    '',
    table(
      ['metric', 'value'],
      [
        ['trades', count.format(m.trades)],
        ['win rate', `${m.winRatePct.toFixed(2)}% (${m.wins} won, ${m.losses} lost)`],
        ['gross P&L', inr.format(m.grossPnl)],
        ['charges', inr.format(m.charges)],
        ['net P&L', inr.format(m.netPnl)],
        ['profit factor', m.profitFactor === null ? '— (no losing trade)' : m.profitFactor.toFixed(2)],
        ['expectancy (net / trade)', inr.format(m.expectancy)],
        ['average win / loss', `${inr.format(m.averageWin)} / ${inr.format(m.averageLoss)}`],
        ['largest win / loss', `${inr.format(m.largestWin)} / ${inr.format(m.largestLoss)}`],
        [
          'max drawdown',
          `${inr.format(m.maxDrawdown)} (${m.maxDrawdownPct.toFixed(2)}% of peak; capital ${inr.format(m.capital)})`,
        ],
        ['longest losing streak', `${m.longestLosingStreak} trade${m.longestLosingStreak === 1 ? '' : 's'}`],
      ],
      [],
    ),
    '',
  ];
  const reasons = Object.entries(m.exitReasons);
  out.push(
    reasons.length === 0
      ? '  no trades, no exits'
      : table(
          ['exit reason', 'trades', 'net P&L'],
          reasons.map(([reason, s]) => [reason, count.format(s.trades), inr.format(s.netPnl)]),
          [1, 2],
        ),
  );
  if (trades.length > 0) {
    const shown = 20;
    const first = Math.max(0, trades.length - shown);
    out.push(
      '',
      `  trades${trades.length > shown ? ` (last ${shown} of ${count.format(trades.length)})` : ''}, times IST`,
      table(
        ['#', 'entry', 'exit', 'symbol', 'qty', 'buy', 'sell', 'net P&L', 'reason'],
        trades.slice(first).map((t, i) => tradeRow(t, first + i + 1)),
        [0, 4, 5, 6, 7],
      ),
    );
  }
  return `${out.join('\n')}\n`;
}

function jsonReport(result: BacktestResult): string {
  const { stats } = result;
  return JSON.stringify({
    candles: result.candles,
    signals: result.signals.map((s) => ({
      time: s.time,
      type: s.type,
      entryTrigger: s.entryTrigger,
      niftyPrice: s.niftyPrice,
      executed: s.executed,
    })),
    trades: result.trades,
    metrics: {
      ...result.metrics,
      ticks: stats.ticks,
      ticksUsed: stats.ticksUsed,
      candleCount: result.candles.length,
      signalCount: stats.signals,
      signalsExecuted: stats.signalsExecuted,
      from: stats.firstTickTime,
      to: stats.lastTickTime,
    },
  });
}

// ---- run --------------------------------------------------------------------------------------------------------

async function run(options: CliOptions): Promise<void> {
  let size: number;
  try {
    const info = await stat(options.input);
    if (!info.isFile()) throw new Error('not a regular file');
    size = info.size;
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new Error(`cannot read ${options.input}: ${reason}`, { cause: error });
  }

  const now = Date.now();
  const { data } = await readCalendarFile(fileURLToPath(BUNDLED_CALENDAR_URL), { now });
  const exchange = createExchangeCalendar(data);
  // Contracts expire on exchange days whatever the session mode, so expiries always use the exchange calendar.
  const expiries = createExpiryCalendar(exchange, underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY'));

  const bar =
    process.stderr.isTTY && size > PROGRESS_MIN_BYTES
      ? new SingleBar(
          {
            stream: process.stderr,
            format: 'backtest [{bar}] {percentage}% | {ticks} ticks | {date} | ETA {eta_formatted}',
            hideCursor: true,
            clearOnComplete: true,
          },
          Presets.shades_classic,
        )
      : undefined;
  bar?.start(size, 0, { ticks: '0', date: '' });
  const stream = createReadStream(options.input, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const backtester = new Backtester({
    params: options.params,
    calendar: options.session === 'market' ? exchange : alwaysOpenCalendar,
    expiries,
    iv: options.iv,
    lots: options.lots,
    capital: options.capital,
    onProgress: ({ ticks, time }) =>
      bar?.update(stream.bytesRead, { ticks: count.format(ticks), date: istDate(time) }),
  });
  let result: BacktestResult;
  try {
    // Lines are split here and parsed synchronously, chunk by chunk: an async step per line or per tick would
    // cost more than the backtest itself on a year of 1-second ticks. Nothing but the current chunk is held.
    const parser = createCsvTickParser({ strict: options.strict });
    // The backtester returns a promise only while an entry or exit is in flight: awaited then, and only then.
    const feed = async (line: string) => {
      const ticks = parser.line(line);
      for (let i = 0; i < ticks.length; i += 1) {
        const pending = backtester.push(ticks[i] as Tick);
        if (pending !== undefined) await pending;
      }
    };
    let rest = '';
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = rest + chunk;
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        await feed(text.slice(start, end));
        start = end + 1;
      }
      rest = text.slice(start);
    }
    if (rest !== '') await feed(rest);
    if (parser.kind === null) {
      throw new CsvParseError(
        1,
        'the file has no header row; expected timestamp,price[,volume] or timestamp,open,high,low,close[,volume]',
      );
    }
    result = await backtester.finish();
    if (parser.dropped > 0) {
      process.stderr.write(
        `backtest: warning: ${count.format(parser.dropped)} row(s) earlier than the row before were dropped, as the live feed drops an out-of-order tick (first at line ${parser.firstDroppedLine ?? '?'}); --strict refuses such a file\n`,
      );
    }
  } finally {
    bar?.stop();
    stream.destroy();
  }

  warnUncoveredYears(exchange, result.stats.firstTickTime, result.stats.lastTickTime);
  process.stdout.write(options.json ? `${jsonReport(result)}\n` : humanReport(result, options));
}

/** Holidays and expiry shifts are known only for the years the calendar file lists: says so for the others. */
function warnUncoveredYears(
  exchange: { hasYear(year: number): boolean },
  from: number | null,
  to: number | null,
): void {
  if (from === null || to === null) return;
  for (let y = Number(istDate(from).slice(0, 4)); y <= Number(istDate(to).slice(0, 4)); y += 1) {
    if (!exchange.hasYear(y)) {
      process.stderr.write(
        `backtest: warning: the calendar lists no holidays for ${y}; every weekday of ${y} was treated as a trading day and expiries were not holiday-shifted\n`,
      );
    }
  }
}

// ---- sweeps -----------------------------------------------------------------------------------------------------

interface SweepCliOptions {
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

type RankedSet = SweepOutcome['results'][number] & { readonly rank: number };

/** Best net P&L first; ties keep the grid's order. */
function ranked(outcome: SweepOutcome): RankedSet[] {
  return [...outcome.results]
    .sort(
      (a, b) => b.figures.metrics.netPnl - a.figures.metrics.netPnl || Number(a.set.id) - Number(b.set.id),
    )
    .map((result, i) => ({ ...result, rank: i + 1 }));
}

const SETTING_LABELS: Readonly<Record<keyof SweepSettings, string>> = {
  interval: 'interval',
  consecutiveCandles: 'N',
  minMovement: 'M',
  entryOffset: 'E',
  stopLoss: 'SL',
  target: 'target',
  lots: 'lots',
  trailing: 'trailing',
  targetMode: 'target mode',
  iv: 'IV %',
  session: 'session',
  capital: 'capital',
};

function settingText(key: keyof SweepSettings, value: SweepSettings[keyof SweepSettings]): string {
  if (key === 'interval') return `${String(value)}m`;
  if (key === 'trailing') return value === true ? 'on' : 'off';
  if (key === 'capital') return inr.format(value as number);
  return String(value);
}

function sweepTable(outcome: SweepOutcome, options: SweepCliOptions, seconds: number): string {
  const rows = ranked(outcome);
  const varied = variedSettings(options.sets);
  const first = options.sets[0]?.settings ?? DEFAULT_SWEEP_SETTINGS;
  const fixed = (Object.keys(SETTING_LABELS) as (keyof SweepSettings)[]).filter((k) => !varied.includes(k));
  const stats = rows[0]?.figures.stats;
  const period =
    stats === undefined || stats.firstTickTime === null || stats.lastTickTime === null
      ? 'no ticks'
      : `${formatIst(stats.firstTickTime)} → ${formatIst(stats.lastTickTime)}`;
  const out = [
    `OptionPilot sweep — ${options.sweep} over ${options.sourceName}`,
    '',
    pairs([
      ['period', period],
      [
        'ticks',
        stats === undefined
          ? '0'
          : `${count.format(stats.ticks)} read, ${count.format(stats.ticksUsed)} in session`,
      ],
      [
        'sets',
        `${count.format(rows.length)} in ${outcome.passes} pass${outcome.passes === 1 ? '' : 'es'} on ${outcome.workers} worker thread${outcome.workers === 1 ? '' : 's'}, ${seconds.toFixed(1)} s`,
      ],
      ['every set', fixed.map((k) => `${SETTING_LABELS[k]} ${settingText(k, first[k])}`).join(', ')],
    ]),
    '',
    table(
      [
        'rank',
        'set',
        ...varied.map((k) => SETTING_LABELS[k]),
        'trades',
        'win rate',
        'net P&L',
        'max drawdown',
      ],
      rows.map(({ rank, set, figures: { metrics: m } }) => [
        String(rank),
        set.id,
        ...varied.map((k) => settingText(k, set.settings[k])),
        count.format(m.trades),
        `${m.winRatePct.toFixed(2)}%`,
        inr.format(m.netPnl),
        `${inr.format(m.maxDrawdown)} (${m.maxDrawdownPct.toFixed(2)}%)`,
      ]),
      [
        0,
        1,
        ...varied.map((_, i) => i + 2),
        varied.length + 2,
        varied.length + 3,
        varied.length + 4,
        varied.length + 5,
      ],
    ),
    '',
    '  net P&L after charges; each set traded alone gives the same figures (npm run backtest -- --input …)',
  ];
  return `${out.join('\n')}\n`;
}

function sweepJson(outcome: SweepOutcome, options: SweepCliOptions): string {
  const rows = ranked(outcome);
  const stats = rows[0]?.figures.stats;
  return JSON.stringify({
    grid: options.sweep,
    source: options.source,
    from: stats?.firstTickTime ?? null,
    to: stats?.lastTickTime ?? null,
    ticks: stats?.ticks ?? 0,
    ticksUsed: stats?.ticksUsed ?? 0,
    passes: outcome.passes,
    workers: outcome.workers,
    sets: rows.map(({ rank, set, figures: { metrics, stats: s } }) => ({
      rank,
      id: set.id,
      settings: set.settings,
      metrics,
      signals: s.signals,
      signalsExecuted: s.signalsExecuted,
    })),
  });
}

const CSV_METRICS = [
  'trades',
  'wins',
  'losses',
  'winRatePct',
  'grossPnl',
  'charges',
  'netPnl',
  'profitFactor',
  'expectancy',
  'maxDrawdown',
  'maxDrawdownPct',
  'longestLosingStreak',
] as const;

function sweepCsv(outcome: SweepOutcome): string {
  const keys = Object.keys(DEFAULT_SWEEP_SETTINGS) as (keyof SweepSettings)[];
  const lines = [['rank', 'set', ...keys, ...CSV_METRICS, 'signals', 'signalsExecuted'].join(',')];
  for (const { rank, set, figures } of ranked(outcome)) {
    const { metrics: m, stats } = figures;
    lines.push(
      [
        rank,
        set.id,
        ...keys.map((k) => set.settings[k]),
        ...CSV_METRICS.map((k) => m[k] ?? ''),
        stats.signals,
        stats.signalsExecuted,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

async function runSweepCli(options: SweepCliOptions): Promise<void> {
  if (options.source.kind === 'csv') {
    const { path } = options.source;
    try {
      if (!(await stat(path)).isFile()) throw new Error('not a regular file');
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      throw new Error(`cannot read ${path}: ${reason}`, { cause: error });
    }
  }
  const bar = process.stderr.isTTY
    ? new SingleBar(
        {
          stream: process.stderr,
          format: 'sweep [{bar}] {percentage}% | {sets} sets | ETA {eta_formatted}',
          hideCursor: true,
          clearOnComplete: true,
        },
        Presets.shades_classic,
      )
    : undefined;
  bar?.start(1000, 0, { sets: count.format(options.sets.length) });
  const started = performance.now();
  let outcome: SweepOutcome;
  try {
    outcome = await runSweep({
      source: options.source,
      sets: options.sets,
      ...(options.workers === undefined ? {} : { workers: options.workers }),
      onProgress: (done) => bar?.update(Math.round(done * 1000)),
    });
  } finally {
    bar?.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  if (outcome.dropped > 0) {
    process.stderr.write(
      `backtest: warning: ${count.format(outcome.dropped)} row(s) earlier than the row before were dropped, as the live feed drops an out-of-order tick (first at line ${outcome.firstDroppedLine ?? '?'}); --strict refuses such a file\n`,
    );
  }
  const stats = outcome.results[0]?.figures.stats;
  const { data } = await readCalendarFile(fileURLToPath(BUNDLED_CALENDAR_URL), { now: Date.now() });
  warnUncoveredYears(createExchangeCalendar(data), stats?.firstTickTime ?? null, stats?.lastTickTime ?? null);
  const text =
    options.format === 'json'
      ? `${sweepJson(outcome, options)}\n`
      : options.format === 'csv'
        ? sweepCsv(outcome)
        : sweepTable(outcome, options, seconds);
  process.stdout.write(text);
}

async function main(): Promise<number> {
  let options: CliOptions | SweepCliOptions | 'help';
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`backtest: ${error.message}\n${error.showUsage ? `\n${USAGE}\n` : ''}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if ('sweep' in options) await runSweepCli(options);
    else await run(options);
    return 0;
  } catch (error) {
    const message =
      error instanceof CsvParseError && 'input' in options
        ? `${options.input}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`backtest: ${message}\n`);
    return 1;
  }
}

// exitCode rather than exit(): a large JSON document on a pipe must be flushed before the process ends.
process.exitCode = await main();
