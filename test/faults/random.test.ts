import { describe, expect, it } from 'vitest';
import { seeded, pick } from './random';

describe('seeded', () => {
  it('replays the same sequence for a seed and differs across seeds', () => {
    const a = seeded(42);
    const b = seeded(42);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(seeded(43)()).not.toBe(first[0]);
  });

  it('stays in [0, 1) and covers the range', () => {
    const random = seeded(7);
    const values = Array.from({ length: 10_000 }, () => random());
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(Math.min(...values)).toBeLessThan(0.01);
    expect(Math.max(...values)).toBeGreaterThan(0.99);
  });
});

describe('pick', () => {
  it('returns every item of the list for some draw, and refuses an empty list', () => {
    const random = seeded(1);
    const seen = new Set(Array.from({ length: 200 }, () => pick(random, ['a', 'b', 'c'])));
    expect([...seen].sort()).toEqual(['a', 'b', 'c']);
    expect(() => pick(random, [])).toThrow();
  });
});
