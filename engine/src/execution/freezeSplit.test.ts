import { describe, expect, it } from 'vitest';
import { splitByFreezeQty } from './freezeSplit';

describe('splitByFreezeQty', () => {
  it.each([
    [1_300, 1_800, 65, [1_300]],
    [1_800, 1_800, 1, [1_800]],
    [3_600, 1_800, 1, [1_800, 1_800]],
    [4_000, 1_800, 65, [1_755, 1_755, 490]],
    [650, undefined, 65, [650]],
  ] as const)('%s with freeze %s and lot %s → %o', (quantity, freeze, lot, expected) => {
    const legs = splitByFreezeQty(quantity, freeze, lot);
    expect(legs).toEqual(expected);
    expect(legs.reduce((a, b) => a + b, 0)).toBe(quantity);
  });

  it('refuses impossible inputs', () => {
    expect(() => splitByFreezeQty(0, 1_800)).toThrow(RangeError);
    expect(() => splitByFreezeQty(100, 50, 65)).toThrow(RangeError);
  });
});
