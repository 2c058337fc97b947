import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  candleToTicks,
  createCsvTickParser,
  CsvParseError,
  linesOf,
  parseCsvLines,
  parseCsvLinesAsync,
  parseCsvTicks,
} from './csvTicks';

const T0 = Date.parse('2026-11-23T09:15:00+05:30');

function errorOf(text: string): CsvParseError {
  try {
    parseCsvTicks(text);
  } catch (e) {
    if (e instanceof CsvParseError) return e;
    throw e;
  }
  throw new Error('expected a CsvParseError');
}

describe('parseCsvTicks: ticks', () => {
  it('reads timestamp,price[,volume] with epoch ms or ISO-8601 with an offset', () => {
    const text = [
      'timestamp,price,volume',
      `${T0},24000.5,10`,
      '2026-11-23T09:15:01+05:30,24001,',
      '2026-11-23T03:45:02Z,24002.25,3',
      '2026-11-23 09:15:03.5+0530,24003,0',
    ].join('\n');
    expect(parseCsvTicks(text)).toEqual({
      kind: 'ticks',
      ticks: [
        { time: T0, price: 24000.5, volume: 10 },
        { time: T0 + 1000, price: 24001, volume: 0 },
        { time: T0 + 2000, price: 24002.25, volume: 3 },
        { time: T0 + 3500, price: 24003, volume: 0 },
      ],
      dropped: 0,
      firstDroppedLine: null,
    });
  });

  it('accepts any column order, CRLF line ends, blank and # comment lines, and no volume column', () => {
    const text = `# NIFTY 50\r\nPrice , Timestamp\r\n\r\n24000,${T0}\r\n`;
    expect(parseCsvTicks(text).ticks).toEqual([{ time: T0, price: 24000, volume: 0 }]);
  });
});

describe('parseCsvTicks: candles', () => {
  it('detects 1-minute candles and expands each to four ticks inside the minute', () => {
    const text = `timestamp,open,high,low,close,volume\n${T0},100,110,95,108,41\n${T0 + 60_000},108,109,90,92,8`;
    const { kind, ticks } = parseCsvTicks(text);
    expect(kind).toBe('candles');
    expect(ticks).toEqual([
      // bullish: O, L, H, C
      { time: T0, price: 100, volume: 10 },
      { time: T0 + 15_000, price: 95, volume: 10 },
      { time: T0 + 30_000, price: 110, volume: 10 },
      { time: T0 + 45_000, price: 108, volume: 11 },
      // bearish: O, H, L, C
      { time: T0 + 60_000, price: 108, volume: 2 },
      { time: T0 + 75_000, price: 109, volume: 2 },
      { time: T0 + 90_000, price: 90, volume: 2 },
      { time: T0 + 105_000, price: 92, volume: 2 },
    ]);
  });

  it('expansion reproduces the bar: same OHLC and volume, all inside its minute', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 50_000, noNaN: true }),
        fc.double({ min: 1, max: 50_000, noNaN: true }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.nat(1_000_000),
        (open, close, up, down, volume) => {
          const bar = {
            time: T0,
            open,
            close,
            high: Math.max(open, close) + up,
            low: Math.max(0.01, Math.min(open, close) - down),
            volume,
          };
          const ticks = candleToTicks(bar);
          const prices = ticks.map((t) => t.price);
          expect(prices[0]).toBe(open);
          expect(prices[3]).toBe(close);
          expect(Math.max(...prices)).toBe(bar.high);
          expect(Math.min(...prices)).toBe(bar.low);
          expect(ticks.reduce((s, t) => s + t.volume, 0)).toBe(volume);
          expect(ticks.every((t) => t.time >= T0 && t.time < T0 + 60_000)).toBe(true);
        },
      ),
    );
  });
});

describe('parseCsvTicks: errors name the line and the problem', () => {
  it.each([
    ['timestamp,price\n1,2\n', 'line 2: timestamp 1 looks like epoch seconds; use epoch milliseconds'],
    [`timestamp,price\n${T0},24000\n${T0},abc`, 'line 3: price "abc" is not a number'],
    [`timestamp,price\n${T0},-5`, 'line 2: price -5 must be positive'],
    [`timestamp,price\n${T0},`, 'line 2: price is missing'],
    [`timestamp,price,volume\n${T0},24000,-1`, 'line 2: volume -1 must be zero or more'],
    [`timestamp,price\n${T0},1,2`, 'line 2: 3 fields but the header has 2'],
    [
      'timestamp,price\n2026-11-23T09:15:00,1',
      'line 2: timestamp "2026-11-23T09:15:00" is neither epoch milliseconds nor ISO-8601 with an offset',
    ],
    [
      'timestamp,price\n2026-02-30T09:15:00+05:30,1',
      'line 2: timestamp "2026-02-30T09:15:00+05:30" is not a real date and time',
    ],
    ['time,ltp\n1,2', 'line 1: header "time,ltp" is not recognised'],
    ['timestamp,price,oi\n1,2,3', 'line 1: unknown column "oi"'],
    ['timestamp,price,price\n', 'line 1: column "price" appears twice'],
    [
      `timestamp,open,high,low,close\n${T0},100,99,95,98`,
      'line 2: high 99 / low 95 do not contain open and close',
    ],
    ['\n\n', 'line 1: the file has no header row'],
  ])('%j → %s', (text, message) => {
    const error = errorOf(text);
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.line).toBe(Number(/^line (\d+)/.exec(message)?.[1]));
  });
});

describe('out-of-order rows follow the live feed', () => {
  const text = `timestamp,price\n${T0 + 5},1\n${T0},2\n${T0 + 6},3\n${T0 + 1},4\n${T0 + 7},5`;

  it('drops and counts a row earlier than the one before, naming the first line', () => {
    const result = parseCsvTicks(text);
    expect(result.ticks.map((t) => t.price)).toEqual([1, 3, 5]);
    expect(result).toMatchObject({ dropped: 2, firstDroppedLine: 3 });
  });

  it('still checks a dropped row', () => {
    expect(() => parseCsvTicks(`timestamp,price\n${T0 + 5},1\n${T0},abc`)).toThrow(/line 3: price "abc"/);
  });

  it('refuses the file when strict', () => {
    expect(() => parseCsvTicks(text, { strict: true })).toThrow(
      new RegExp(`line 3: timestamp ${T0} is earlier than the previous row`),
    );
  });
});

describe('streaming parsers', () => {
  const text = `timestamp,price\n${T0},1\n${T0 + 1},2\n${T0 + 2},3`;

  it('splits lines lazily, LF or CRLF', () => {
    expect([...linesOf('a\r\nb\nc')]).toEqual(['a', 'b', 'c']);
    expect([...linesOf('a\n')]).toEqual(['a', '']);
  });

  it('yields ticks one line at a time and stops reading when the consumer stops', () => {
    let read = 0;
    function* counted() {
      for (const line of linesOf(text)) {
        read += 1;
        yield line;
      }
    }
    const ticks = parseCsvLines(counted());
    expect(ticks.next().value).toEqual({ time: T0, price: 1, volume: 0 });
    expect(read).toBe(2);
  });

  it('reads async line sources (Node readline)', async () => {
    async function* lines() {
      yield* linesOf(text);
    }
    const prices: number[] = [];
    for await (const tick of parseCsvLinesAsync(lines())) prices.push(tick.price);
    expect(prices).toEqual([1, 2, 3]);
  });

  it('reports the kind once the header is read', () => {
    const parser = createCsvTickParser();
    expect(parser.kind).toBeNull();
    parser.line('timestamp,open,high,low,close');
    expect(parser.kind).toBe('candles');
  });
});
