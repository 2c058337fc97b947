import { describe, expect, it } from 'vitest';
import { decodeDhanPacket, dhanFeedRequests } from './marketFeed';

function full(securityId: number, ltp: number, bid: number, ask: number): Buffer {
  const frame = Buffer.alloc(162);
  frame.writeUInt8(8, 0);
  frame.writeInt16LE(162, 1);
  frame.writeUInt8(2, 3);
  frame.writeInt32LE(securityId, 4);
  frame.writeFloatLE(ltp, 8);
  frame.writeInt32LE(1_764_000_000, 14);
  frame.writeFloatLE(bid, 74);
  frame.writeFloatLE(ask, 78);
  return frame;
}

describe('Dhan market feed packets', () => {
  it('decodes a ticker packet of the index and a full packet with the best bid and ask', () => {
    const ticker = Buffer.alloc(16);
    ticker.writeUInt8(2, 0);
    ticker.writeInt16LE(16, 1);
    ticker.writeUInt8(0, 3);
    ticker.writeInt32LE(13, 4);
    ticker.writeFloatLE(24012.35, 8);
    ticker.writeInt32LE(1_764_000_000, 12);
    expect(decodeDhanPacket(ticker)).toMatchObject({ code: 2, segment: 0, securityId: '13', ltp: 24012.35 });
    expect(decodeDhanPacket(full(52175, 120.05, 119.95, 120.1))).toMatchObject({
      code: 8,
      segment: 2,
      securityId: '52175',
      ltp: 120.05,
      bid: 119.95,
      ask: 120.1,
    });
  });

  it('ignores a full packet cut short and packets of other kinds', () => {
    expect(decodeDhanPacket(full(1, 1, 1, 1).subarray(0, 100))).toBeUndefined();
    const oi = Buffer.alloc(16);
    oi.writeUInt8(5, 0);
    expect(decodeDhanPacket(oi)).toBeUndefined();
  });

  it('batches subscriptions 100 instruments a message', () => {
    const ids = Array.from({ length: 150 }, (_, i) => String(50_000 + i));
    const messages = dhanFeedRequests(21, 'NSE_FNO', ids).map(
      (m) => JSON.parse(m) as { InstrumentCount: number; RequestCode: number; InstrumentList: unknown[] },
    );
    expect(messages.map((m) => m.InstrumentCount)).toEqual([100, 50]);
    expect(messages[0]?.RequestCode).toBe(21);
    expect(messages[1]?.InstrumentList[0]).toEqual({ ExchangeSegment: 'NSE_FNO', SecurityId: '50100' });
  });
});
