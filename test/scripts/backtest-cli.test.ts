import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = 'test/fixtures/backtest';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI as `npm run backtest` does (tsx), from the repository root, without a TTY. */
function backtest(...args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/backtest.ts', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const MINUTE = 60_000;
// 09:15 IST is 03:45 UTC: one-minute buckets start on whole minutes, and the file's day is 7 Jan 2026.
const DAY_START = Date.parse('2026-01-07T09:15:00+05:30');
const DAY_END = Date.parse('2026-01-07T15:30:00+05:30');

describe('npm run backtest', () => {
  it('--json prints exactly one JSON document with the documented keys and epoch-ms times', async () => {
    const run = await backtest('--input', `${FIXTURES}/ticks.csv`, '--json');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const doc = JSON.parse(run.stdout) as {
      candles: Record<string, number>[];
      signals: Record<string, unknown>[];
      trades: Record<string, unknown>[];
      metrics: Record<string, unknown>;
    };
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(Object.keys(doc)).toEqual(['candles', 'signals', 'trades', 'metrics']);

    expect(doc.candles.length).toBeGreaterThan(300);
    for (const candle of doc.candles) {
      expect(Object.keys(candle)).toEqual(['time', 'open', 'high', 'low', 'close', 'volume']);
      // a candle's time is its bucket start: a whole minute inside the session
      expect(Number.isInteger(candle.time)).toBe(true);
      expect(candle.time! % MINUTE).toBe(0);
      expect(candle.time).toBeGreaterThanOrEqual(DAY_START);
      expect(candle.time).toBeLessThan(DAY_END);
    }
    const candleStarts = new Set(doc.candles.map((c) => c.time));

    expect(doc.signals.length).toBeGreaterThan(0);
    for (const signal of doc.signals) {
      expect(Object.keys(signal)).toEqual(['time', 'type', 'entryTrigger', 'niftyPrice', 'executed']);
      // a signal's time is its setup candle's close: the end of a candle in the list
      expect(candleStarts.has((signal.time as number) - MINUTE)).toBe(true);
      expect(['CALL', 'PUT']).toContain(signal.type);
      expect(typeof signal.executed).toBe('boolean');
    }
    expect(doc.signals[0]).toEqual({
      time: Date.parse('2026-01-07T09:23:00+05:30'),
      type: 'CALL',
      entryTrigger: 23524,
      niftyPrice: 23522,
      executed: true,
    });

    expect(doc.trades.map((t) => t.exitReason)).toEqual(['TARGET', 'STOP_LOSS', 'SQUARE_OFF']);
    expect(doc.trades[2]).toMatchObject({ exitTime: Date.parse('2026-01-07T15:15:00+05:30'), quantity: 65 });
    expect(doc.metrics).toMatchObject({ trades: 3, wins: 1, losses: 2, longestLosingStreak: 2 });
    expect(doc.metrics.netPnl).toBeCloseTo(
      (doc.metrics.grossPnl as number) - (doc.metrics.charges as number),
      2,
    );
  });

  it('prints a readable report: metrics, exit reasons, rupees with Indian grouping, IST times', async () => {
    const run = await backtest('--input', `${FIXTURES}/ticks.csv`, '--capital', '250000');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('2026-01-07 09:15:00 IST → 2026-01-07 15:20:00 IST');
    expect(run.stdout).toMatch(/win rate\s+33\.33% \(1 won, 2 lost\)/);
    expect(run.stdout).toMatch(/net P&L\s+₹[\d,]+\.\d\d/);
    expect(run.stdout).toContain('capital ₹2,50,000.00');
    expect(run.stdout).toMatch(/exit reason\s+trades\s+net P&L/);
    for (const reason of ['TARGET', 'STOP_LOSS', 'SQUARE_OFF'])
      expect(run.stdout).toMatch(new RegExp(`\\n\\s+${reason}\\s+1\\s`));
    expect(run.stdout).toMatch(/2026-01-07 14:53:00\s+15:15:00\s+NIFTY13JAN26\d+PE/);
    expect(run.stderr).toBe('');
  });

  it('reads 1-minute candle files and takes the strategy flags', async () => {
    const run = await backtest(
      '--input',
      `${FIXTURES}/candles.csv`,
      '--json',
      '--interval',
      '3m',
      '--consecutive',
      '2',
      '--min-move',
      '10',
      '--session',
      'always',
      '--iv',
      '20',
      '--lots',
      '2',
    );
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as { candles: { time: number }[]; trades: { quantity: number }[] };
    expect(doc.candles).toHaveLength(14); // 40 one-minute bars from 09:15 in 3-minute buckets
    expect(doc.candles.every((c) => (c.time - DAY_START) % (3 * MINUTE) === 0)).toBe(true);
    expect(doc.trades.length).toBeGreaterThan(0);
    expect(doc.trades.every((t) => t.quantity === 130)).toBe(true);
  });

  it('fails with exit 1 and a clear message for a missing file, a bad header and an unparsable row', async () => {
    const missing = await backtest('--input', `${FIXTURES}/no-such-file.csv`, '--json');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('cannot read test/fixtures/backtest/no-such-file.csv: no such file');

    const header = await backtest('--input', `${FIXTURES}/bad-header.csv`, '--json');
    expect(header.code).toBe(1);
    expect(header.stdout).toBe('');
    expect(header.stderr).toMatch(/bad-header\.csv: line 1: header "time,last" is not recognised/);

    const row = await backtest('--input', `${FIXTURES}/bad-row.csv`);
    expect(row.code).toBe(1);
    expect(row.stdout).toBe('');
    expect(row.stderr).toMatch(/bad-row\.csv: line 4: price "abc" is not a number/);
  });

  it('answers usage mistakes with exit 2 and the usage text on stderr', async () => {
    const unknown = await backtest('--input', `${FIXTURES}/ticks.csv`, '--bogus');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain("Unknown option '--bogus'");
    expect(unknown.stderr).toContain('usage: npm run backtest -- --input FILE');

    const badNumber = await backtest('--input', `${FIXTURES}/ticks.csv`, '--stop-loss', 'ten');
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toContain('--stop-loss must be a number, got "ten"');

    const outOfRange = await backtest('--input', `${FIXTURES}/ticks.csv`, '--consecutive', '0');
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toContain('--consecutive must be a whole number from 1 to 20, got "0"');

    const noInput = await backtest('--json');
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toContain('--input FILE is required');
  });

  it('drops an out-of-order row as the live feed does, warns with the count and line; --strict refuses the file', async () => {
    const lines = readFileSync(resolve(ROOT, FIXTURES, 'ticks.csv'), 'utf8').split('\n');
    // Line 10 of the file repeats a time from before line 9: one row out of order.
    const shuffled = [...lines.slice(0, 9), lines[4] ?? '', ...lines.slice(9)];
    const dir = mkdtempSync(join(tmpdir(), 'backtest-cli-'));
    const file = join(dir, 'out-of-order.csv');
    writeFileSync(file, shuffled.join('\n'));

    const clean = await backtest('--input', `${FIXTURES}/ticks.csv`, '--json');
    const dropped = await backtest('--input', file, '--json');
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toContain('1 row(s) earlier than the row before were dropped');
    expect(dropped.stderr).toContain('first at line 10');
    // Dropping the stale row leaves the same data, so the same trades.
    expect(JSON.parse(dropped.stdout)).toEqual(JSON.parse(clean.stdout));

    const strict = await backtest('--input', file, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(
      /out-of-order\.csv: line 10: timestamp .* is earlier than the previous row/,
    );
  });

  it('--strategy-file reads the white-box parameter set; flags override it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'backtest-cli-'));
    const file = join(dir, 'strategy.json');
    // The shape GET /api/strategy returns.
    writeFileSync(
      file,
      JSON.stringify({
        name: 'x',
        intervalMinutes: 1,
        rules: [],
        params: {
          consecutiveCandles: 3,
          minMovement: 5,
          entryOffset: 2,
          stopLoss: 20,
          target: 40,
          callEnabled: true,
          putEnabled: false,
          tradingEnabled: true,
          squareOffTime: '15:15',
        },
      }),
    );
    const callsOnly = JSON.parse(
      (await backtest('--input', `${FIXTURES}/ticks.csv`, '--strategy-file', file, '--json')).stdout,
    ) as { trades: { type: string }[] };
    expect(callsOnly.trades.length).toBeGreaterThan(0);
    expect(callsOnly.trades.every((t) => t.type === 'CALL')).toBe(true);
    const tighter = JSON.parse(
      (
        await backtest(
          '--input',
          `${FIXTURES}/ticks.csv`,
          '--strategy-file',
          file,
          '--target',
          '15',
          '--json',
        )
      ).stdout,
    ) as { trades: { type: string }[] };
    // Still the file's CALL-only set, with the flag's tighter target: the trades change.
    expect(tighter.trades.length).toBeGreaterThan(0);
    expect(tighter.trades.every((t) => t.type === 'CALL')).toBe(true);
    expect(tighter.trades).not.toEqual(callsOnly.trades);

    writeFileSync(file, JSON.stringify({ stopLos: 20 }));
    const typo = await backtest('--input', `${FIXTURES}/ticks.csv`, '--strategy-file', file);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown parameter "stopLos"');
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const run = await backtest('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--session market|always');
  });
});

describe('npm run backtest -- --sweep', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backtest-sweep-'));
  const grid = (name: string, json: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(json));
    return path;
  };

  it('--json ranks every set by net P&L, each with the figures of that set run alone', async () => {
    const path = grid('grid.json', {
      base: { target: 30 },
      vary: { stopLoss: [10, 20], trailing: [true, false] },
    });
    const run = await backtest(
      '--sweep',
      path,
      '--input',
      `${FIXTURES}/ticks.csv`,
      '--json',
      '--workers',
      '2',
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const doc = JSON.parse(run.stdout) as {
      passes: number;
      workers: number;
      ticks: number;
      sets: {
        rank: number;
        id: string;
        settings: Record<string, unknown>;
        metrics: Record<string, number>;
      }[];
    };
    expect(doc).toMatchObject({ passes: 2, workers: 2, ticks: 1461 });
    expect(doc.sets.map((s) => s.rank)).toEqual([1, 2, 3, 4]);
    expect(doc.sets.map((s) => s.id).sort()).toEqual(['1', '2', '3', '4']);
    const nets = doc.sets.map((s) => s.metrics.netPnl as number);
    expect(nets).toEqual([...nets].sort((a, b) => b - a));

    // Set 1 (stop-loss 10, trailing on) against the single backtest with the same settings.
    const one = doc.sets.find((s) => s.id === '1');
    expect(one?.settings).toMatchObject({ stopLoss: 10, target: 30, trailing: true, lots: 1, iv: 14 });
    const alone = await backtest(
      '--input',
      `${FIXTURES}/ticks.csv`,
      '--json',
      '--stop-loss',
      '10',
      '--target',
      '30',
    );
    const single = JSON.parse(alone.stdout) as { metrics: Record<string, unknown> };
    expect(one?.metrics).toEqual(
      Object.fromEntries(Object.keys(one?.metrics ?? {}).map((key) => [key, single.metrics[key]])),
    );
    expect(one?.metrics.trades).toBeGreaterThan(0);
  });

  it('--csv prints a header and one ranked row per set; the table names only the settings that vary', async () => {
    const path = grid('lots.json', { vary: { lots: [1, 3] } });
    const csv = await backtest('--sweep', path, '--input', `${FIXTURES}/ticks.csv`, '--csv');
    expect(csv.code).toBe(0);
    const [header, ...rows] = csv.stdout.trimEnd().split('\n');
    expect(header?.split(',').slice(0, 3)).toEqual(['rank', 'set', 'interval']);
    expect(header).toContain(',lots,trailing,targetMode,iv,session,capital,trades,wins,losses,winRatePct,');
    expect(rows).toHaveLength(2);
    const net = header?.split(',').indexOf('netPnl') ?? -1;
    const [first, second] = rows.map((row) => row.split(','));
    expect(Number(first?.[net])).toBeGreaterThanOrEqual(Number(second?.[net]));
    expect(first?.[0]).toBe('1');

    const table = await backtest('--sweep', path, '--input', `${FIXTURES}/ticks.csv`);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/rank\s+set\s+lots\s+trades\s+win rate\s+net P&L\s+max drawdown/);
    expect(table.stdout).toMatch(/every set\s+interval 1m, N 3, M 5, E 2, SL 20, target 40, trailing on/);
  });

  it('refuses a bad grid with exit 2 and every field named; usage mistakes with exit 2; a missing file with 1', async () => {
    const bad = grid('bad.json', { base: { lots: 0 }, vary: { stoploss: [10], interval: [2] } });
    const run = await backtest('--sweep', bad, '--input', `${FIXTURES}/ticks.csv`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      [
        `backtest: ${bad}: base.lots: must be from 1 to 10000`,
        `${bad}: vary.interval[0]: must be one of 1, 3, 5, 15 (minutes), got "2"`,
        `${bad}: vary.stoploss: unknown field (known: interval, consecutiveCandles, minMovement, entryOffset, stopLoss, target, lots, trailing, targetMode, iv, session, capital)`,
        '',
      ].join('\n'),
    );

    const notJson = grid('not.json', 'x');
    writeFileSync(notJson, '{ "vary": ');
    expect((await backtest('--sweep', notJson, '--generate', '2026')).stderr).toMatch(
      /^backtest: --sweep .*not\.json: /,
    );

    const flag = await backtest(
      '--sweep',
      grid('ok.json', {}),
      '--input',
      `${FIXTURES}/ticks.csv`,
      '--stop-loss',
      '9',
    );
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--stop-loss cannot be used with --sweep');
    const both = await backtest(
      '--sweep',
      grid('ok.json', {}),
      '--input',
      `${FIXTURES}/ticks.csv`,
      '--generate',
      '2026',
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--sweep needs exactly one of --input FILE and --generate YEAR');

    const missing = await backtest('--sweep', grid('ok.json', {}), '--input', `${FIXTURES}/no-such-file.csv`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read test/fixtures/backtest/no-such-file.csv: no such file');
    const row = await backtest('--sweep', grid('ok.json', {}), '--input', `${FIXTURES}/bad-row.csv`);
    expect(row.code).toBe(1);
    expect(row.stderr).toMatch(/bad-row\.csv: line 4: price "abc" is not a number/);
  });
});
