import { describe, expect, it } from 'vitest';
import { kiteFanoutOnce, maxInWindow } from './kite-fanout';

describe('kiteFanoutOnce', () => {
  it('counts the most times inside any window', () => {
    expect(maxInWindow([0, 100, 999, 1_000, 1_500, 2_600], 1_000)).toBe(3);
    expect(maxInWindow([], 1_000)).toBe(0);
  });

  it('places, fills and persists every account’s entry once, at most 10 orders/s per account', async () => {
    const result = await kiteFanoutOnce(5, 12);
    expect(result.accounts).toBe(5);
    expect(result.placed).toBe(60);
    // Every placement was seen leaving by the transport's sent channel (the bench's "sent" figure).
    expect(result.sent).toBe(60);
    expect(result.allSentMs).toBeGreaterThanOrEqual(0);
    // Per account, the 11th and 12th requests cannot reach the fake before the signal + 1 s (arrival jitter
    // only delays requests, so this bound is exact).
    expect(result.requestTimesByAccount.size).toBe(5);
    for (const times of result.requestTimesByAccount.values()) {
      const sorted = [...times].sort((a, b) => a - b);
      expect(sorted).toHaveLength(12);
      sorted.forEach((at, k) =>
        expect(at - result.startedAt).toBeGreaterThanOrEqual(Math.floor(k / 10) * 1_000),
      );
    }
    expect(result.allFilledMs).toBeGreaterThanOrEqual(result.allReceivedMs);
  }, 60_000);
});
