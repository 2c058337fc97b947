import { describe, expect, it } from 'vitest';
import { fyersFanoutOnce } from './fyers-fanout';

describe('fyersFanoutOnce', () => {
  it('places, fills (pushed on the order sockets) and persists every account’s entry once, at most 10 orders/s per account', async () => {
    const result = await fyersFanoutOnce(5, 12);
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
