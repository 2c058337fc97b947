import { describe, expect, it } from 'vitest';
import { istDateTime } from '../calendar/ist';
import { createSimulatedMarket } from './simulatedMarket';
import type { Regime } from './simulatedMarket';
import { createRandom } from './random';

const OPEN = istDateTime('2026-11-23', '09:15');

describe('createSimulatedMarket', () => {
  it('switches between range and trend regimes during a session', () => {
    const market = createSimulatedMarket({ seed: 9 });
    const seen = new Set<Regime>();
    for (let s = 1; s <= 22_500; s += 1) {
      market.step(OPEN + s * 1_000, 1_000);
      seen.add(market.regime);
    }
    expect([...seen].sort()).toEqual(['down', 'range', 'up']);
  });

  it('is more volatile in the first minutes than at midday (intraday smile)', () => {
    let openMoves = 0;
    let middayMoves = 0;
    for (let seed = 1; seed <= 10; seed += 1) {
      const market = createSimulatedMarket({ seed, jumpsPerDay: 0 });
      let prev = market.price;
      for (let s = 1; s <= 22_500; s += 1) {
        const price = market.step(OPEN + s * 1_000, 1_000);
        const move = Math.abs(Math.log(price / prev));
        if (s <= 900) openMoves += move; // 09:15–09:30
        if (s > 10_800 && s <= 11_700) middayMoves += move; // 12:15–12:30
        prev = price;
      }
    }
    expect(openMoves / middayMoves).toBeGreaterThan(1.5);
  });

  it('applies an overnight gap on a new day', () => {
    const a = createSimulatedMarket({ seed: 4, startPrice: 24_000, jumpsPerDay: 0 });
    const b = createSimulatedMarket({ seed: 4, startPrice: 24_000, jumpsPerDay: 0 });
    expect(a.step(OPEN, 1_000, true)).not.toBe(b.step(OPEN, 1_000, false));
  });
});

describe('createRandom', () => {
  it('is uniform in [0, 1) and normal with mean 0 and variance 1', () => {
    const random = createRandom(123);
    let sum = 0;
    let sumSq = 0;
    let min = 1;
    let max = 0;
    const n = 20_000;
    for (let i = 0; i < n; i += 1) {
      const u = random.next();
      min = Math.min(min, u);
      max = Math.max(max, u);
      const z = random.normal();
      sum += z;
      sumSq += z * z;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    expect(Math.abs(sum / n)).toBeLessThan(0.05);
    expect(sumSq / n).toBeGreaterThan(0.95);
    expect(sumSq / n).toBeLessThan(1.05);
  });

  it('gives the same sequence for the same seed, including string seeds', () => {
    const draw = (seed: number | string) => {
      const random = createRandom(seed);
      return [random.next(), random.next(), random.normal()];
    };
    expect(draw('demo')).toEqual(draw('demo'));
    expect(draw('demo')).not.toEqual(draw('demo2'));
    expect(draw(1)).not.toEqual(draw(2));
  });
});
