import { describe, expect, it } from 'vitest';
import { aliceFanoutOnce } from './aliceblue-fanout';

describe('aliceFanoutOnce', () => {
  it('enters every account once through the runtime’s fan-out: sent, acknowledged, filled and persisted as a trade', async () => {
    const result = await aliceFanoutOnce(5);
    expect(result.accounts).toBe(5);
    expect(result.placed).toBe(5);
    // Every entry was seen leaving by the transport's sent channel (the bench's "sent" figure).
    expect(result.sent).toBe(5);
    expect(result.allSentMs).toBeGreaterThanOrEqual(0);
    expect(result.requestTimesByAccount.size).toBe(5);
    // An entry, then the stop resting at the broker once it filled: well inside 10 orders/s per account.
    for (const times of result.requestTimesByAccount.values()) expect(times).toHaveLength(2);
    expect(result.maxPerAccountPerSecond).toBeLessThanOrEqual(2);
    expect(result.allFilledMs).toBeGreaterThanOrEqual(result.allReceivedMs);
  }, 60_000);
});
