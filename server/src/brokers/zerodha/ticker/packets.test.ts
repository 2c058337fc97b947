import { describe, expect, it } from 'vitest';
import { decodeKiteFrame } from './packets';

// Packets and their decoded values from zerodha/kiteconnect-mocks (ticker_quote.packet / ticker_full.packet and
// the JSON beside them): instrument 408065, an NSE equity.
const QUOTE_PACKET = 'AAY6AQACZoMAAAABAAJlaQAR8bIAA+n/AAWANwACZPMAAmc8AAJhyQACZGw=';
const FULL_PACKET =
  'AAY6AQACZroAAAAHAAJlbQASMhcAA+m7AAWKAQACZPMAAmc8AAJhyQACZGxg4pR/AAAAAAAAAAAAAAAAYOKUfwAAAAUAAmacAAEAAAAAAIwAAmZ0AAIAAAAAAAIAAmZvAAEAAAAAANsAAmZqAAcAAAAAADIAAmZlAAEAAAAAAKwAAma6AAMAAAAAACwAAma/AAMAAAAAAS4AAmbJAAMAAAAAAI0AAmbOAAIAAAAAAtQAAmbTAAUAAA==';

function frame(...packets: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from([0, packets.length])];
  for (const p of packets) parts.push(Buffer.from([p.length >> 8, p.length & 0xff]), p);
  return Buffer.concat(parts);
}

describe('decodeKiteFrame', () => {
  it('decodes a 44-byte quote packet (prices in paise)', () => {
    const packet = Buffer.from(QUOTE_PACKET, 'base64');
    expect(packet.length).toBe(44);
    expect(decodeKiteFrame(frame(packet))).toEqual([
      { token: 408065, lastPrice: 1573.15, isIndex: false, volume: 1175986 },
    ]);
  });

  it('decodes a 184-byte full packet with the best bid / ask and the exchange time', () => {
    const packet = Buffer.from(FULL_PACKET, 'base64');
    expect(packet.length).toBe(184);
    const [decoded] = decodeKiteFrame(frame(packet));
    expect(decoded).toEqual({
      token: 408065,
      lastPrice: 1573.7,
      isIndex: false,
      volume: 1192471,
      bid: 1573.4,
      ask: 1573.7,
      exchangeTime: Date.parse('2021-07-05T10:41:27+05:30'),
    });
  });

  it('decodes index packets (segment 9) and several packets in one frame', () => {
    const ltp = Buffer.alloc(8);
    ltp.writeInt32BE(408065, 0);
    ltp.writeInt32BE(157315, 4);
    const index = Buffer.alloc(32);
    index.writeInt32BE(256265, 0);
    index.writeInt32BE(2_412_345, 4);
    index.writeInt32BE(1_764_000_000, 28);
    expect(decodeKiteFrame(frame(ltp, index))).toEqual([
      { token: 408065, lastPrice: 1573.15, isIndex: false },
      { token: 256265, lastPrice: 24123.45, isIndex: true, exchangeTime: 1_764_000_000_000 },
    ]);
  });

  it('yields nothing for a heartbeat and stops at a truncated packet', () => {
    expect(decodeKiteFrame(Buffer.alloc(1))).toEqual([]);
    const packet = Buffer.from(QUOTE_PACKET, 'base64');
    const truncated = frame(packet).subarray(0, 30);
    expect(decodeKiteFrame(truncated)).toEqual([]);
  });
});
