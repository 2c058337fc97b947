import { describe, expect, it } from 'vitest';
import {
  CLIENT_ORDER_ID_LENGTH,
  createClientOrderIdFactory,
  fromAlphanumericId,
  isClientOrderId,
  toAlphanumericId,
} from './clientOrderId';

describe('client order ids', () => {
  const now = Date.UTC(2026, 10, 23, 4, 0);

  it('look like OP-<base36 time>-<seq>-<rand> and fit a 20-character broker tag', () => {
    const next = createClientOrderIdFactory({ now: () => now, random: () => 0.5 });
    const id = next();
    expect(id).toBe(`OP-${now.toString(36)}-000-${Math.floor(0.5 * 36 ** 3).toString(36)}`);
    expect(id.length).toBe(CLIENT_ORDER_ID_LENGTH);
    expect(CLIENT_ORDER_ID_LENGTH).toBeLessThanOrEqual(20);
    expect(isClientOrderId(id)).toBe(true);
  });

  it('never repeats within one process, even in the same millisecond with the same random draw', () => {
    const next = createClientOrderIdFactory({ now: () => now, random: () => 0 });
    const ids = new Set(Array.from({ length: 10_000 }, () => next()));
    expect(ids.size).toBe(10_000);
  });

  it('formats every counter and random part as 3 base-36 digits, wrapping the counter', () => {
    const draws = [0, 1 / 36 ** 3, 0.5, 0.999_999_9];
    let draw = 0;
    const next = createClientOrderIdFactory({
      now: () => now,
      random: () => draws[draw++ % draws.length] ?? 0,
    });
    const pad = (value: number): string => value.toString(36).padStart(3, '0');
    const mismatches: string[] = [];
    for (let seq = 0; seq < 36 ** 3 + 2; seq += 1) {
      const id = next();
      const random = draws[seq % draws.length] ?? 0;
      const expected = `-${pad(seq % 36 ** 3)}-${pad(Math.floor(random * 36 ** 3))}`;
      if (!id.endsWith(expected) || id.length !== CLIENT_ORDER_ID_LENGTH) mismatches.push(id);
    }
    expect(mismatches).toEqual([]);
  });

  it('round-trips through the alphanumeric tag form', () => {
    const next = createClientOrderIdFactory({ now: () => now });
    const id = next();
    const tag = toAlphanumericId(id);
    expect(tag).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(fromAlphanumericId(tag)).toBe(id);
    expect(fromAlphanumericId('manual-order')).toBeUndefined();
  });
});
