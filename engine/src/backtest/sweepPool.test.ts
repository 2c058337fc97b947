import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import calendarJson from '../../data/nse-calendar.json' with { type: 'json' };
import contractsJson from '../../data/nse-contracts.json' with { type: 'json' };
import { alwaysOpenCalendar } from '../calendar/alwaysOpenCalendar';
import { loadCalendarData } from '../calendar/calendarData';
import { parseContractSpecs, underlyingSpec } from '../calendar/contractSpecs';
import { createExchangeCalendar } from '../calendar/exchangeCalendar';
import { createExpiryCalendar } from '../calendar/expiry';
import { runBacktest } from './backtester';
import { generatedSessionTicks } from './generatedTicks';
import { parseSweepGrid, toSweepSet } from './sweepGrid';
import { runSweep } from './sweepPool';

const calendar = createExchangeCalendar(loadCalendarData(calendarJson, { now: Date.UTC(2026, 0, 1) }).data);
const expiries = createExpiryCalendar(calendar, underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY'));
const source = { kind: 'generated', from: '2026-03-02', to: '2026-03-04', seed: 5 } as const;

describe('runSweep', () => {
  it('runs the sets on worker threads, a pass per IV and session, each set as it runs alone', async () => {
    const sets = parseSweepGrid({
      vary: { iv: [12, 16], stopLoss: [10, 20] },
      sets: [{ session: 'always', lots: 2 }],
    });
    const shares: number[] = [];
    const outcome = await runSweep({ source, sets, workers: 2, onProgress: (done) => shares.push(done) });
    expect(outcome.passes).toBe(3);
    expect(outcome.workers).toBe(2);
    expect(outcome.results.map((r) => r.set.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(shares.at(-1)).toBe(1);
    expect(shares.every((share, i) => share >= (shares[i - 1] ?? 0))).toBe(true);

    const ticks = [...generatedSessionTicks(calendar, source)];
    for (const { set, figures } of outcome.results) {
      const s = toSweepSet(set);
      const alone = await runBacktest({
        ticks,
        params: s.params,
        calendar: set.settings.session === 'market' ? calendar : alwaysOpenCalendar,
        expiries,
        iv: set.settings.iv / 100,
        lots: s.lots,
        trailing: s.trailing,
        targetMode: s.targetMode,
      });
      expect(alone.metrics.trades, `set ${set.id} trades at all`).toBeGreaterThan(0);
      expect(figures, `set ${set.id}`).toEqual({ id: set.id, metrics: alone.metrics, stats: alone.stats });
    }
  }, 60_000); // two worker threads each load the engine through tsx: seconds on a busy machine

  it('rejects with the file and line of a bad row', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sweep-'));
    const path = join(dir, 'bad-row.csv');
    await writeFile(
      path,
      'timestamp,price\n2026-01-07T09:15:00+05:30,23500\n2026-01-07T09:15:15+05:30,abc\n',
    );
    try {
      await expect(
        runSweep({ source: { kind: 'csv', path, strict: false }, sets: parseSweepGrid({}) }),
      ).rejects.toThrow(`${path}: line 3: price "abc" is not a number`);
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
