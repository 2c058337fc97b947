import type { Candle, Tick } from '../core/types';
import { isValidDate } from '../calendar/ist';

/** What a replay CSV holds, detected from its header row. */
export type CsvKind = 'ticks' | 'candles';

/** A problem in a replay CSV; `line` is 1-based as an editor shows it. */
export class CsvParseError extends Error {
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`line ${line}: ${problem}`);
    this.name = 'CsvParseError';
  }
}

const TICK_COLUMNS = ['timestamp', 'price'] as const;
const CANDLE_COLUMNS = ['timestamp', 'open', 'high', 'low', 'close'] as const;
const EXPECTED = 'expected timestamp,price[,volume] or timestamp,open,high,low,close[,volume]';

/** Offsets within a 1-minute bar at which its O, first extreme, second extreme and C ticks are placed. */
const CANDLE_TICK_OFFSETS_MS = [0, 15_000, 30_000, 45_000] as const;

// ISO-8601 with a date, a time and an explicit offset (Z or ±HH:MM / ±HHMM): a time without a zone is ambiguous.
const ISO_RE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A line-by-line parser of replay CSVs, for files too big to hold as ticks at once: feed it lines in order and it
 * returns the ticks each line yields. The first non-blank line must be the header; blank lines and lines starting
 * with `#` are skipped. Candle rows expand to four ticks (see {@link candleToTicks}).
 */
export interface CsvTickParser {
  /** the detected kind, once the header has been read */
  readonly kind: CsvKind | null;
  /** parses the next line (without its line break) and returns the ticks it yields */
  line(text: string): Tick[];
  /** rows dropped for being earlier than the row before (the live feed's rule) */
  readonly dropped: number;
  /** line number of the first dropped row, null when none was */
  readonly firstDroppedLine: number | null;
}

/** Options of {@link createCsvTickParser}. */
export interface CsvTickParserOptions {
  /**
   * refuse a row earlier than the previous one (a `CsvParseError`) instead of dropping and counting it as the live
   * feed drops an out-of-order tick (default false)
   */
  readonly strict?: boolean;
}

/** Creates a {@link CsvTickParser}; errors are {@link CsvParseError}s naming the line and the problem. */
export function createCsvTickParser(options: CsvTickParserOptions = {}): CsvTickParser {
  let lineNo = 0;
  let dropped = 0;
  let firstDroppedLine: number | null = null;
  let kind: CsvKind | null = null;
  let index: Record<string, number> = {};
  let width = 0;
  let lastTime = Number.NEGATIVE_INFINITY;

  function readHeader(cells: string[]): void {
    const names = cells.map((c) => c.trim().toLowerCase());
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) throw new CsvParseError(lineNo, `column "${name}" appears twice`);
      seen.add(name);
    }
    const has = (cols: readonly string[]) => cols.every((c) => seen.has(c));
    kind = has(CANDLE_COLUMNS) ? 'candles' : has(TICK_COLUMNS) ? 'ticks' : null;
    if (kind === null)
      throw new CsvParseError(lineNo, `header "${cells.join(',')}" is not recognised; ${EXPECTED}`);
    const allowed = new Set<string>([...(kind === 'candles' ? CANDLE_COLUMNS : TICK_COLUMNS), 'volume']);
    const unknown = names.find((n) => !allowed.has(n));
    if (unknown !== undefined) throw new CsvParseError(lineNo, `unknown column "${unknown}"; ${EXPECTED}`);
    index = Object.fromEntries(names.map((n, i) => [n, i]));
    width = names.length;
  }

  function cell(cells: string[], name: string): string | undefined {
    const i = index[name];
    return i === undefined ? undefined : cells[i]?.trim();
  }

  function number(cells: string[], name: string, options: { optional?: boolean } = {}): number {
    const raw = cell(cells, name);
    if (raw === undefined || raw === '') {
      if (options.optional) return 0;
      throw new CsvParseError(lineNo, `${name} is missing`);
    }
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new CsvParseError(lineNo, `${name} "${raw}" is not a number`);
    if (name === 'volume' ? value < 0 : value <= 0) {
      throw new CsvParseError(
        lineNo,
        `${name} ${raw} must be ${name === 'volume' ? 'zero or more' : 'positive'}`,
      );
    }
    return value;
  }

  function timestamp(cells: string[]): number {
    const raw = cell(cells, 'timestamp') ?? '';
    if (raw === '') throw new CsvParseError(lineNo, 'timestamp is missing');
    let time: number;
    if (/^\d+$/.test(raw)) {
      time = Number(raw);
      // Epoch seconds are ten digits today; as milliseconds they would land in 1970.
      if (time < 1e11) {
        throw new CsvParseError(lineNo, `timestamp ${raw} looks like epoch seconds; use epoch milliseconds`);
      }
    } else {
      const m = ISO_RE.exec(raw);
      if (!m) {
        throw new CsvParseError(
          lineNo,
          `timestamp "${raw}" is neither epoch milliseconds nor ISO-8601 with an offset (e.g. 2026-11-23T09:15:00+05:30)`,
        );
      }
      const zone = m[3] === 'Z' ? 'Z' : `${m[3]?.slice(0, 3)}:${m[3]?.slice(-2)}`;
      time = Date.parse(`${m[1]}T${m[2]}${zone}`);
      // Date.parse rolls 30 Feb over to March, so the date is checked on its own.
      if (Number.isNaN(time) || !isValidDate(m[1] ?? ''))
        throw new CsvParseError(lineNo, `timestamp "${raw}" is not a real date and time`);
    }
    return time;
  }

  function rowTicks(cells: string[], time: number): Tick[] {
    const volume = number(cells, 'volume', { optional: true });
    if (kind === 'ticks') return [{ time, price: number(cells, 'price'), volume }];
    const bar = {
      time,
      open: number(cells, 'open'),
      high: number(cells, 'high'),
      low: number(cells, 'low'),
      close: number(cells, 'close'),
      volume,
    };
    if (bar.high < Math.max(bar.open, bar.close, bar.low) || bar.low > Math.min(bar.open, bar.close)) {
      throw new CsvParseError(lineNo, `high ${bar.high} / low ${bar.low} do not contain open and close`);
    }
    return candleToTicks(bar);
  }

  return {
    get kind() {
      return kind;
    },
    get dropped() {
      return dropped;
    },
    get firstDroppedLine() {
      return firstDroppedLine;
    },
    line(text) {
      lineNo += 1;
      const trimmed = text.trim();
      if (trimmed === '' || trimmed.startsWith('#')) return [];
      const cells = trimmed.split(',');
      if (kind === null) {
        readHeader(cells);
        return [];
      }
      if (cells.length > width) {
        throw new CsvParseError(lineNo, `${cells.length} fields but the header has ${width}`);
      }
      const time = timestamp(cells);
      const ticks = rowTicks(cells, time);
      if (time < lastTime) {
        if (options.strict === true) {
          throw new CsvParseError(
            lineNo,
            `timestamp ${cell(cells, 'timestamp') ?? ''} is earlier than the previous row`,
          );
        }
        // The live feed's rule: an out-of-order tick is dropped and counted (the row itself was still checked).
        dropped += 1;
        firstDroppedLine ??= lineNo;
        return [];
      }
      lastTime = time;
      return ticks;
    },
  };
}

/**
 * Expands a 1-minute bar into four ticks at +0 s, +15 s, +30 s and +45 s: open, then low and high in the order the
 * bar implies (a bullish bar dips first and closes near its high, so O→L→H→C; a bearish one O→H→L→C), then close.
 * All ticks stay inside the minute so each lands in the bar's own bucket. The volume is split evenly, the rounding
 * remainder going to the close, so candle volume sums back to the bar's.
 */
export function candleToTicks(bar: Omit<Candle, 'interval' | 'closed'>): Tick[] {
  const bullish = bar.close >= bar.open;
  const prices = [bar.open, bullish ? bar.low : bar.high, bullish ? bar.high : bar.low, bar.close];
  const share = Math.floor(bar.volume / 4);
  return prices.map((price, i) => ({
    time: bar.time + CANDLE_TICK_OFFSETS_MS[i as 0 | 1 | 2 | 3],
    price,
    volume: i === 3 ? bar.volume - 3 * share : share,
  }));
}

/** Splits text into lines lazily (LF or CRLF). */
export function* linesOf(text: string): Generator<string> {
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    const line = text.slice(start, stop);
    yield line.endsWith('\r') ? line.slice(0, -1) : line;
    if (end === -1) return;
    start = end + 1;
  }
}

/** Parses replay lines lazily, yielding ticks as they are read (for big files). */
export function* parseCsvLines(lines: Iterable<string>): Generator<Tick, CsvKind> {
  const parser = createCsvTickParser();
  for (const line of lines) yield* parser.line(line);
  if (parser.kind === null) throw new CsvParseError(1, `the file has no header row; ${EXPECTED}`);
  return parser.kind;
}

/** Parses replay lines from an async source (e.g. Node's `readline`), yielding ticks as they are read. */
export async function* parseCsvLinesAsync(lines: AsyncIterable<string>): AsyncGenerator<Tick, CsvKind> {
  const parser = createCsvTickParser();
  for await (const line of lines) yield* parser.line(line);
  if (parser.kind === null) throw new CsvParseError(1, `the file has no header row; ${EXPECTED}`);
  return parser.kind;
}

/** Parses a whole replay CSV: ticks `timestamp,price[,volume]` or 1-minute candles `timestamp,open,high,low,close[,volume]`. */
export function parseCsvTicks(
  text: string,
  options: CsvTickParserOptions = {},
): { kind: CsvKind; ticks: Tick[]; dropped: number; firstDroppedLine: number | null } {
  const parser = createCsvTickParser(options);
  const ticks: Tick[] = [];
  for (const line of linesOf(text)) {
    for (const tick of parser.line(line)) ticks.push(tick);
  }
  if (parser.kind === null) throw new CsvParseError(1, `the file has no header row; ${EXPECTED}`);
  return {
    kind: parser.kind,
    ticks,
    dropped: parser.dropped,
    firstDroppedLine: parser.firstDroppedLine,
  };
}
