import { describe, expect, it } from 'vitest';
import { INTERVALS } from './types';

describe('INTERVALS', () => {
  it('lists the four supported candle intervals in ascending order', () => {
    expect(INTERVALS).toEqual([1, 3, 5, 15]);
  });
});
