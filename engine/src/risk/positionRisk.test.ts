import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyPrice,
  copyPositionRisk,
  ownPositionRisk,
  createPositionRisk,
  forceExit,
  istTimeOnDateOf,
  onPrice,
} from './positionRisk';
import type { PositionExit, PositionRiskConfig, PositionRiskState } from './positionRisk';

// 10:00 IST on Monday 23 Nov 2026
const T0 = Date.UTC(2026, 10, 23, 4, 30);
const SQUARE_OFF = Date.UTC(2026, 10, 23, 9, 45); // 15:15 IST

const BASE: PositionRiskConfig = {
  entryPrice: 100,
  stopLoss: 20,
  target: 40,
  trailing: true,
  targetMode: 'fixed',
  entryTime: T0,
};

function feed(
  state: PositionRiskState,
  prices: readonly number[],
  start = T0 + 60_000,
): { state: PositionRiskState; exit?: PositionExit } {
  let current = state;
  for (const [i, price] of prices.entries()) {
    const step = onPrice(current, price, start + i * 1_000);
    current = step.state;
    if (step.exit) return { state: current, exit: step.exit };
  }
  return { state: current };
}

describe('position risk: exit paths', () => {
  const cases: {
    name: string;
    config?: Partial<PositionRiskConfig>;
    prices: number[];
    reason?: string;
    price?: number;
    stop?: number;
  }[] = [
    { name: 'stop loss at entry − stopLoss', prices: [95, 85, 80], reason: 'STOP_LOSS', price: 80 },
    { name: 'a gap below the stop exits at the gap price', prices: [95, 70], reason: 'STOP_LOSS', price: 70 },
    { name: 'no move of the stop before a gain of stopLoss', prices: [119.95, 81], stop: 80 },
    {
      name: 'break-even: +stopLoss moves the stop to cost, then a fall exits there',
      prices: [110, 120, 115, 100],
      reason: 'TRAILING_STOP',
      price: 100,
    },
    {
      name: 'trailing the high-water mark by stopLoss',
      prices: [120, 130, 125, 110],
      reason: 'TRAILING_STOP',
      price: 110,
    },
    { name: 'fixed target at entry + target', prices: [120, 139.95, 140], reason: 'TARGET', price: 140 },
    {
      name: 'trailing off: the stop never moves',
      config: { trailing: false },
      prices: [130, 85, 80],
      reason: 'STOP_LOSS',
      price: 80,
    },
    {
      name: 'dynamic target: reaching it locks profit and extends it, the trailing stop exits',
      config: { targetMode: 'dynamic', lockDistance: 10, targetStep: 10 },
      prices: [140, 150, 145, 140],
      reason: 'TRAILING_STOP',
      price: 140,
    },
  ];

  it.each(cases)('$name', ({ config, prices, reason, price, stop }) => {
    const result = feed(createPositionRisk({ ...BASE, ...config }), prices);
    expect(result.exit?.reason).toBe(reason);
    if (price !== undefined) expect(result.exit?.price).toBe(price);
    if (stop !== undefined) expect(result.state.stopPrice).toBe(stop);
  });

  it('dynamic target: the stop locks at target − lockDistance and the target steps up', () => {
    const start = createPositionRisk({ ...BASE, targetMode: 'dynamic', lockDistance: 10, targetStep: 10 });
    const first = feed(start, [140]);
    expect(first.exit).toBeUndefined();
    expect(first.state).toMatchObject({ stopPrice: 130, targetPrice: 150, targetHits: 1 });
    // a gap through two more steps extends twice (lock 160 − 10); trailing (hw − 20 = 145) is below the lock
    const gap = feed(first.state, [165]);
    expect(gap.state).toMatchObject({ stopPrice: 150, targetPrice: 170, targetHits: 3 });
  });

  it('dynamic target defaults: lock and step are half the stop distance', () => {
    const result = feed(createPositionRisk({ ...BASE, targetMode: 'dynamic' }), [140]);
    expect(result.state).toMatchObject({ stopPrice: 130, targetPrice: 150 });
  });

  it('squares off at 15:15 IST by default', () => {
    const state = createPositionRisk(BASE);
    expect(state.squareOffAt).toBe(SQUARE_OFF);
    expect(onPrice(state, 110, SQUARE_OFF - 1).exit).toBeUndefined();
    expect(onPrice(state, 110, SQUARE_OFF).exit).toEqual({
      reason: 'SQUARE_OFF',
      price: 110,
      time: SQUARE_OFF,
    });
  });

  it('resolves HH:MM on the date of the first price when the entry time is unknown, and honours a configured time', () => {
    const state = createPositionRisk({ entryPrice: 100, stopLoss: 20, target: 40, squareOffAt: '15:00' });
    expect(state.squareOffAt).toBeNull();
    const fifteen = Date.UTC(2026, 10, 23, 9, 30);
    expect(onPrice(state, 105, T0).state.squareOffAt).toBe(fifteen);
    expect(onPrice(state, 105, fifteen).exit?.reason).toBe('SQUARE_OFF');
    expect(istTimeOnDateOf(T0, '09:15')).toBe(Date.UTC(2026, 10, 23, 3, 45));
    expect(() => createPositionRisk({ ...BASE, squareOffAt: '25:00' })).toThrow(RangeError);
  });

  it('ignores prices after the exit and forced exits of a closed position', () => {
    const closed = feed(createPositionRisk(BASE), [80]);
    expect(onPrice(closed.state, 200, T0 + 10_000)).toEqual({ state: closed.state });
    expect(forceExit(closed.state, 'MANUAL', 90, T0 + 10_000).exit).toBeUndefined();
  });

  it('forces an exit for outside reasons at the given premium', () => {
    expect(forceExit(createPositionRisk(BASE), 'FLATTEN_ALL', 104, T0).exit).toEqual({
      reason: 'FLATTEN_ALL',
      price: 104,
      time: T0,
    });
  });

  it('resumes identically from its JSON form', () => {
    const mid = feed(createPositionRisk(BASE), [130]).state;
    const restored = JSON.parse(JSON.stringify(mid)) as PositionRiskState;
    expect(feed(restored, [110])).toEqual(feed(mid, [110]));
    expect(feed(restored, [110]).exit?.reason).toBe('TRAILING_STOP');
  });
});

describe('position risk: properties', () => {
  it('the stop is a ratchet: it never falls, and a stop exit happens at or below the stop', () => {
    fc.assert(
      fc.property(
        fc.record({
          entryPrice: fc.integer({ min: 20, max: 400 }),
          stopLoss: fc.integer({ min: 1, max: 50 }),
          target: fc.integer({ min: 1, max: 100 }),
          trailing: fc.boolean(),
          targetMode: fc.constantFrom<'fixed' | 'dynamic'>('fixed', 'dynamic'),
          lockDistance: fc.integer({ min: 0, max: 30 }),
          targetStep: fc.integer({ min: 1, max: 30 }),
        }),
        fc.array(fc.integer({ min: -3_000, max: 3_000 }), { maxLength: 80 }),
        (config, moves) => {
          let state = createPositionRisk({ ...config, entryTime: T0 });
          let price = config.entryPrice;
          for (const [i, move] of moves.entries()) {
            price = Math.max(0.05, Math.round((price + move / 100) * 20) / 20);
            const step = onPrice(state, price, T0 + i * 1_000);
            expect(step.state.stopPrice).toBeGreaterThanOrEqual(state.stopPrice);
            expect(step.state.stopPrice).toBeGreaterThanOrEqual(state.initialStop);
            if (step.exit?.reason === 'STOP_LOSS' || step.exit?.reason === 'TRAILING_STOP') {
              expect(step.exit.price).toBeLessThanOrEqual(step.state.stopPrice);
            }
            if (!config.trailing && config.targetMode === 'fixed')
              expect(step.state.stopPrice).toBe(state.initialStop);
            state = step.state;
            if (step.exit) break;
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('applyPrice updates the owner’s state in place to what onPrice returns, and onPrice leaves its input alone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'fixed' | 'dynamic'>('fixed', 'dynamic'),
        fc.boolean(),
        fc.array(fc.integer({ min: -800, max: 800 }), { maxLength: 60 }),
        (targetMode, trailing, moves) => {
          let value = createPositionRisk({ ...BASE, targetMode, trailing });
          const owned = ownPositionRisk(value);
          let price = BASE.entryPrice;
          for (const [i, move] of moves.entries()) {
            price = Math.max(0.05, Math.round((price + move / 100) * 20) / 20);
            const before = JSON.stringify(value);
            const step = onPrice(value, price, T0 + i * 1_000);
            expect(JSON.stringify(value)).toBe(before);
            const exit = applyPrice(owned, price, T0 + i * 1_000);
            expect(copyPositionRisk(owned)).toStrictEqual(step.state);
            expect(exit).toEqual(step.exit);
            value = step.state;
            if (exit) break;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
