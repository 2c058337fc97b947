import { describe, expect, it } from 'vitest';
import { createFeedResponseCodec } from './marketDataFeedV3';

describe('MarketDataFeedV3 codec', () => {
  it('round-trips a live feed frame with int64 times as numbers and enums as names', () => {
    const codec = createFeedResponseCodec();
    const frame = codec.encode({
      type: 'live_feed',
      currentTs: 1_795_500_000_123,
      feeds: {
        'NSE_FO|40001': {
          fullFeed: {
            marketFF: {
              ltpc: { ltp: 120.05, ltt: 1_795_500_000_100, ltq: 65, cp: 118 },
              marketLevel: { bidAskQuote: [{ bidQ: 650, bidP: 119.95, askQ: 325, askP: 120.15 }] },
            },
          },
        },
      },
    });
    const decoded = codec.decode(frame);
    expect(decoded.type).toBe('live_feed');
    expect(decoded.currentTs).toBe(1_795_500_000_123);
    expect(decoded.feeds?.['NSE_FO|40001']?.fullFeed?.marketFF?.ltpc).toEqual({
      ltp: 120.05,
      ltt: 1_795_500_000_100,
      ltq: 65,
      cp: 118,
    });
  });

  it('decodes a market_info frame and refuses garbage', () => {
    const codec = createFeedResponseCodec();
    const info = codec.decode(
      codec.encode({ type: 'market_info', marketInfo: { segmentStatus: { NSE_FO: 'NORMAL_OPEN' } } }),
    );
    expect(info).toMatchObject({
      type: 'market_info',
      marketInfo: { segmentStatus: { NSE_FO: 'NORMAL_OPEN' } },
    });
    expect(() => codec.decode(Uint8Array.from([0xff, 0xff, 0xff]))).toThrow();
  });
});
