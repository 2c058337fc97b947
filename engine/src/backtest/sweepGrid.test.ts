import { describe, expect, it } from 'vitest';
import type { GridSet, SweepSettings } from './sweepGrid';
import {
  DEFAULT_SWEEP_SETTINGS,
  parseSweepGrid,
  planSweepPasses,
  SweepGridError,
  toSweepSet,
  variedSettings,
} from './sweepGrid';

function issuesOf(json: unknown): readonly string[] {
  try {
    parseSweepGrid(json);
  } catch (error) {
    if (error instanceof SweepGridError) return error.issues;
    throw error;
  }
  throw new Error('the grid was accepted');
}

describe('parseSweepGrid', () => {
  it('expands base × every combination of vary, the last list fastest, numbered from 1', () => {
    const sets = parseSweepGrid({ base: { target: 30 }, vary: { stopLoss: [15, 20, 25], lots: [1, 2] } });
    expect(sets.map((s) => [s.id, s.settings.stopLoss, s.settings.lots])).toEqual([
      ['1', 15, 1],
      ['2', 15, 2],
      ['3', 20, 1],
      ['4', 20, 2],
      ['5', 25, 1],
      ['6', 25, 2],
    ]);
    expect(sets.every((s) => s.settings.target === 30 && s.settings.trailing)).toBe(true);
    expect(variedSettings(sets)).toEqual(['stopLoss', 'lots']);
  });

  it('appends explicit sets over base; an empty grid is the defaults, once', () => {
    const sets = parseSweepGrid({
      base: { lots: 2 },
      vary: { trailing: [true, false] },
      sets: [{ targetMode: 'dynamic', interval: 5 }],
    });
    expect(
      sets.map((s) => [s.settings.trailing, s.settings.targetMode, s.settings.interval, s.settings.lots]),
    ).toEqual([
      [true, 'fixed', 1, 2],
      [false, 'fixed', 1, 2],
      [true, 'dynamic', 5, 2],
    ]);
    expect(parseSweepGrid({ sets: [{ lots: 3 }] }).map((s) => s.settings.lots)).toEqual([3]);
    expect(parseSweepGrid({})).toEqual([{ id: '1', settings: DEFAULT_SWEEP_SETTINGS }]);
  });

  it('names every bad field and says what is wrong', () => {
    expect(
      issuesOf({
        base: { lots: 1.5, session: 'weekend' },
        vary: { stopLoss: [15, 0], interval: [1, 2], stoploss: [1] },
        sets: [{ consecutiveCandles: 21 }, { trailing: 'yes' }],
        extra: 1,
      }),
    ).toEqual([
      'base.lots: must be a whole number',
      'base.session: Invalid option: expected one of "market"|"always"',
      'vary.interval[1]: must be one of 1, 3, 5, 15 (minutes), got "2"',
      'vary.stopLoss[1]: must be a number greater than 0 and at most 10000, got "0"',
      'vary.stoploss: unknown field (known: interval, consecutiveCandles, minMovement, entryOffset, stopLoss, target, lots, trailing, targetMode, iv, session, capital)',
      'sets[0].consecutiveCandles: must be a whole number from 1 to 20, got "21"',
      'sets[1].trailing: Invalid input: expected boolean, received string',
      'extra: unknown field (known: base, vary, sets)',
    ]);
    expect(issuesOf({ vary: { lots: [] } })).toEqual(['vary.lots: must list at least one value']);
    expect(issuesOf([1])).toEqual([expect.stringMatching(/object/)]);
  });

  it('refuses a grid of more than 10,000 sets', () => {
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    expect(issuesOf({ vary: { lots: many, capital: many } })).toEqual([
      'the grid expands to 10201 sets; at most 10000 are allowed',
    ]);
  });
});

describe('planSweepPasses', () => {
  it('runs each IV and session in passes of its own, dealt evenly over the workers', () => {
    const sets = parseSweepGrid({ vary: { iv: [12, 14], stopLoss: [10, 15, 20, 25, 30, 35] } });
    const plans = planSweepPasses(sets, 4);
    expect(plans.map((p) => [p.iv, p.session, p.sets.length])).toEqual([
      [12, 'market', 3],
      [12, 'market', 3],
      [14, 'market', 3],
      [14, 'market', 3],
    ]);
    expect(plans.every((p) => p.sets.every((s) => s.settings.iv === p.iv))).toBe(true);
    expect(plans.flatMap((p) => p.sets.map((s) => s.id)).sort((a, b) => Number(a) - Number(b))).toEqual(
      sets.map((s) => s.id),
    );
    expect(planSweepPasses(sets.slice(0, 3), 1).map((p) => p.sets.length)).toEqual([3]);
  });

  it('splits every value of every list evenly over the passes, not the grid order', () => {
    // Round-robin in grid order would put all 15 trailing sets in one pass and all 15 others in the other.
    const sets = parseSweepGrid({
      vary: { stopLoss: [10, 15, 20, 25, 30], target: [20, 40, 60], trailing: [true, false] },
    });
    const [a, b] = planSweepPasses(sets, 2);
    expect([a?.sets.length, b?.sets.length]).toEqual([15, 15]);
    const count = (sets: readonly GridSet[] = [], key: keyof SweepSettings, value: unknown) =>
      sets.filter((s) => s.settings[key] === value).length;
    for (const [key, values] of [
      ['stopLoss', [10, 15, 20, 25, 30]],
      ['target', [20, 40, 60]],
      ['trailing', [true, false]],
    ] as const) {
      for (const value of values) {
        // 15 sets of one trailing value cannot split evenly in two: within one.
        const difference = Math.abs(count(a?.sets, key, value) - count(b?.sets, key, value));
        expect(difference, `${key} ${String(value)}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('turns a grid set into a pass set: the strategy parameters and the account settings', () => {
    const [set] = parseSweepGrid({
      base: { interval: 3, stopLoss: 12, lots: 4, trailing: false, targetMode: 'dynamic', capital: 5e5 },
    });
    expect(toSweepSet(set!)).toMatchObject({
      id: '1',
      params: {
        interval: 3,
        stopLoss: 12,
        target: 40,
        callEnabled: true,
        putEnabled: true,
        tradingEnabled: true,
      },
      lots: 4,
      trailing: false,
      targetMode: 'dynamic',
      capital: 5e5,
    });
  });
});
