// `npm run backtest -- --input FILE [options]`: backtests the breakout strategy over a replay CSV (ticks or 1-minute
// candles) with option premiums modelled by Black–Scholes, and prints a report (or one JSON document with --json).
// `npm run backtest -- --sweep GRID (--input FILE | --generate YEAR)`: many parameter sets at once, ranked.
// Exit codes: 0 ok, 1 bad input or runtime failure, 2 usage error (also a bad grid file). docs/backtesting.md.
// The arguments: backtest/cli.ts; the reports: backtest/report.ts; here, reading the input and running.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Presets, SingleBar } from 'cli-progress';
import {
  alwaysOpenCalendar,
  Backtester,
  createCsvTickParser,
  createExchangeCalendar,
  createExpiryCalendar,
  CsvParseError,
  istDate,
  parseContractSpecs,
  underlyingSpec,
  type BacktestResult,
  type Tick,
} from '@optionpilot/engine';
import { BUNDLED_CALENDAR_URL, readCalendarFile } from '@optionpilot/engine/calendar/readCalendarFile';
import { runSweep } from '@optionpilot/engine/backtest/sweepPool';
import type { SweepOutcome } from '@optionpilot/engine/backtest/sweepPool';
import contractsJson from '../engine/data/nse-contracts.json' with { type: 'json' };
import { parseCli, USAGE, UsageError, type CliOptions, type SweepCliOptions } from './backtest/cli';
import { count, humanReport, jsonReport, sweepCsv, sweepJson, sweepTable } from './backtest/report';

/** Inputs above this size (≈ 100k lines) get a progress bar on stderr when stderr is a terminal. */
const PROGRESS_MIN_BYTES = 3_000_000;

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
