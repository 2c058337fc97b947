import { describe, expect, it } from 'vitest';
import { parseIntentKey, toPaise } from './orderStore';

describe('parseIntentKey', () => {
  it('reads exits (with or without the router leg suffix) and treats everything else as an entry', () => {
    expect(parseIntentKey('42:exit:1#0')).toEqual({ purpose: 'exit', tradeId: 42 });
    expect(parseIntentKey('42:exit:3')).toEqual({ purpose: 'exit', tradeId: 42 });
    // A live position's stop resting at the broker belongs to its trade, as an exit order.
    expect(parseIntentKey('42:stop:1#0')).toEqual({ purpose: 'exit', tradeId: 42 });
    expect(parseIntentKey('7:3:entry#0')).toEqual({ purpose: 'entry', tradeId: null });
    expect(parseIntentKey('x:exit:1#0')).toEqual({ purpose: 'entry', tradeId: null });
  });
});

describe('toPaise', () => {
  it('rounds rupee premiums to whole paise without binary noise', () => {
    expect(toPaise(100.05)).toBe(10_005);
    expect(toPaise(0.1 + 0.2)).toBe(30);
    expect(toPaise(123.456)).toBe(12_346);
  });
});
