import { describe, expect, it } from 'vitest';
import calendarJson from '../../data/nse-calendar.json' with { type: 'json' };
import contractsJson from '../../data/nse-contracts.json' with { type: 'json' };
import { alwaysOpenCalendar } from '../calendar/alwaysOpenCalendar';
import { loadCalendarData } from '../calendar/calendarData';
import { parseContractSpecs, underlyingSpec } from '../calendar/contractSpecs';
import { createExchangeCalendar } from '../calendar/exchangeCalendar';
import { createExpiryCalendar } from '../calendar/expiry';
import type { Tick } from '../core/types';
import { DEFAULT_STRATEGY_PARAMS } from '../strategy/params';
import { runBacktest } from './backtester';
import { generatedSessionTicks } from './generatedTicks';
import { SweepPass } from './sweepPass';
import type { SweepSet } from './sweepPass';

const calendar = createExchangeCalendar(loadCalendarData(calendarJson, { now: Date.UTC(2026, 0, 1) }).data);
const expiries = createExpiryCalendar(calendar, underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY'));
/** Six trading days of 1-second ticks, across a weekend and a weekly expiry (Tuesday 13 Jan). */
const ticks: readonly Tick[] = [
  ...generatedSessionTicks(calendar, { from: '2026-01-08', to: '2026-01-15', seed: 19 }),
];
const IV = 0.14;

const p = DEFAULT_STRATEGY_PARAMS;
/** Sets that differ in every setting a sweep varies; two are the same set twice (same contracts, same moments). */
const SETS: readonly SweepSet[] = [
  { id: 'a', params: p, lots: 1, trailing: true, targetMode: 'fixed' },
  { id: 'b', params: { ...p, stopLoss: 10, target: 25 }, lots: 2, trailing: true, targetMode: 'fixed' },
  { id: 'c', params: { ...p, stopLoss: 15 }, lots: 1, trailing: false, targetMode: 'fixed' },
  { id: 'd', params: { ...p, target: 20 }, lots: 3, trailing: true, targetMode: 'dynamic' },
  {
    id: 'e',
    params: { ...p, interval: 3, consecutiveCandles: 2, minMovement: 3 },
    lots: 1,
    trailing: true,
    targetMode: 'fixed',
  },
  {
    id: 'f',
    params: { ...p, entryOffset: 0, minMovement: 2 },
    lots: 30,
    trailing: false,
    targetMode: 'dynamic',
    capital: 20_000,
  },
  { id: 'g', params: { ...p, stopLoss: 10, target: 25 }, lots: 2, trailing: true, targetMode: 'fixed' },
];

describe('SweepPass', () => {
  it('gives every set exactly the result of a backtest of that set alone: trades to the paisa, signals, metrics', async () => {
    const pass = new SweepPass({ sets: SETS, calendar, expiries, iv: IV });
    for (const tick of ticks) await pass.push(tick);
    const results = await pass.finish();
    expect(results.map((r) => r.id)).toEqual(SETS.map((s) => s.id));

    for (const set of SETS) {
      const alone = await runBacktest({
        ticks,
        params: set.params,
        calendar,
        expiries,
        iv: IV,
        lots: set.lots,
        trailing: set.trailing,
        targetMode: set.targetMode,
        ...(set.capital === undefined ? {} : { capital: set.capital }),
      });
      const swept = results.find((r) => r.id === set.id);
      expect(alone.metrics.trades, `set ${set.id} trades at all`).toBeGreaterThan(0);
      expect(swept?.trades, `set ${set.id} trades`).toEqual(alone.trades);
      expect(swept?.signals, `set ${set.id} signals`).toEqual(alone.signals);
      expect(swept?.metrics, `set ${set.id} metrics`).toEqual(alone.metrics);
      expect(swept?.stats, `set ${set.id} stats`).toEqual(alone.stats);
    }
    // The settings matter: the sets do not all come out the same, and the twin sets do.
    const nets = new Set(results.map((r) => r.metrics.netPnl));
    expect(nets.size).toBeGreaterThanOrEqual(5);
    expect(results.find((r) => r.id === 'g')?.trades).toEqual(results.find((r) => r.id === 'b')?.trades);
  }, 30_000); // eight runs over 150,000 ticks: seconds, more on a busy CI machine

  it('holds for the always-open calendar too: positions overnight, many closed together at the end of data', async () => {
    const days = [...generatedSessionTicks(calendar, { from: '2026-02-02', to: '2026-02-04', seed: 3 })];
    const sets = SETS.slice(0, 4);
    const pass = new SweepPass({ sets, calendar: alwaysOpenCalendar, expiries, iv: IV });
    for (const tick of days) await pass.push(tick);
    const results = await pass.finish();
    let endOfData = 0;
    for (const set of sets) {
      const alone = await runBacktest({
        ticks: days,
        params: set.params,
        calendar: alwaysOpenCalendar,
        expiries,
        iv: IV,
        lots: set.lots,
        trailing: set.trailing,
        targetMode: set.targetMode,
      });
      const swept = results.find((r) => r.id === set.id);
      expect(swept?.trades, `set ${set.id} trades`).toEqual(alone.trades);
      expect(swept?.metrics, `set ${set.id} metrics`).toEqual(alone.metrics);
      endOfData += alone.trades.filter((t) => t.exitReason === 'END_OF_DATA').length;
    }
    // Without a square-off the runs end holding positions: several sets close at once when the data ends.
    expect(endOfData).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('refuses an empty pass and a set id used twice', () => {
    expect(() => new SweepPass({ sets: [], calendar, expiries, iv: IV })).toThrow(/at least one set/);
    const set = SETS[0] as SweepSet;
    expect(() => new SweepPass({ sets: [set, set], calendar, expiries, iv: IV })).toThrow(
      /"a" appears twice/,
    );
  });
});
