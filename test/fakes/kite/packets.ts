// Binary market data packets laid out as Kite Connect v3's WebSocket documentation describes them (the fake's own
// encoder, written from the docs, so the adapter's decoder is checked against an independent implementation).
// A frame is: int16 number of packets, then per packet int16 length + the packet. Every field is a big-endian
// int32; prices are in paise (NSE/NFO).

/** The three subscription modes and their packet lengths (tradable instruments). */
export type TickerMode = 'ltp' | 'quote' | 'full';

export interface FakeDepthLevel {
  readonly quantity: number;
  readonly price: number;
  readonly orders: number;
}

/** A tradable instrument's state at one moment (rupees; converted to paise on encoding). */
export interface FakeQuote {
  readonly token: number;
  readonly lastPrice: number;
  readonly lastQuantity?: number;
  readonly averagePrice?: number;
  readonly volume?: number;
  readonly buyQuantity?: number;
  readonly sellQuantity?: number;
  readonly open?: number;
  readonly high?: number;
  readonly low?: number;
  readonly close?: number;
  /** epoch seconds */
  readonly lastTradeTime?: number;
  readonly oi?: number;
  /** epoch seconds */
  readonly exchangeTime?: number;
  /** five levels each side */
  readonly bids?: readonly FakeDepthLevel[];
  readonly asks?: readonly FakeDepthLevel[];
}

/** An index's state (indices are not tradable: 8-byte ltp, 28-byte quote, 32-byte full packets). */
export interface FakeIndexQuote {
  readonly token: number;
  readonly lastPrice: number;
  readonly high?: number;
  readonly low?: number;
  readonly open?: number;
  readonly close?: number;
  /** epoch seconds */
  readonly exchangeTime?: number;
}

const paise = (rupees: number | undefined): number => Math.round((rupees ?? 0) * 100);

/** One tradable instrument's packet: 8 bytes (ltp), 44 (quote) or 184 (full). */
export function encodeQuotePacket(quote: FakeQuote, mode: TickerMode): Buffer {
  const length = mode === 'ltp' ? 8 : mode === 'quote' ? 44 : 184;
  const buf = Buffer.alloc(length);
  buf.writeInt32BE(quote.token, 0);
  buf.writeInt32BE(paise(quote.lastPrice), 4);
  if (mode === 'ltp') return buf;
  const ints = [
    quote.lastQuantity ?? 0,
    paise(quote.averagePrice),
    quote.volume ?? 0,
    quote.buyQuantity ?? 0,
    quote.sellQuantity ?? 0,
    paise(quote.open),
    paise(quote.high),
    paise(quote.low),
    paise(quote.close),
  ];
  ints.forEach((value, i) => buf.writeInt32BE(value, 8 + i * 4));
  if (mode === 'quote') return buf;
  buf.writeInt32BE(quote.lastTradeTime ?? 0, 44);
  buf.writeInt32BE(quote.oi ?? 0, 48);
  buf.writeInt32BE(quote.oi ?? 0, 52);
  buf.writeInt32BE(quote.oi ?? 0, 56);
  buf.writeInt32BE(quote.exchangeTime ?? 0, 60);
  // Market depth: five bids then five asks, 12 bytes each (int32 quantity, int32 price, int16 orders, 2 padding).
  const levels = [...padLevels(quote.bids), ...padLevels(quote.asks)];
  levels.forEach((level, i) => {
    const at = 64 + i * 12;
    buf.writeInt32BE(level.quantity, at);
    buf.writeInt32BE(paise(level.price), at + 4);
    buf.writeInt16BE(level.orders, at + 8);
  });
  return buf;
}

function padLevels(levels: readonly FakeDepthLevel[] = []): FakeDepthLevel[] {
  const five = levels.slice(0, 5);
  while (five.length < 5) five.push({ quantity: 0, price: 0, orders: 0 });
  return five;
}

/** An index packet: 8 bytes (ltp), 28 (quote) or 32 (full, with the exchange timestamp). */
export function encodeIndexPacket(index: FakeIndexQuote, mode: TickerMode): Buffer {
  const length = mode === 'ltp' ? 8 : mode === 'quote' ? 28 : 32;
  const buf = Buffer.alloc(length);
  buf.writeInt32BE(index.token, 0);
  buf.writeInt32BE(paise(index.lastPrice), 4);
  if (mode === 'ltp') return buf;
  buf.writeInt32BE(paise(index.high), 8);
  buf.writeInt32BE(paise(index.low), 12);
  buf.writeInt32BE(paise(index.open), 16);
  buf.writeInt32BE(paise(index.close), 20);
  buf.writeInt32BE(paise(index.lastPrice - (index.close ?? index.lastPrice)), 24);
  if (mode === 'full') buf.writeInt32BE(index.exchangeTime ?? 0, 28);
  return buf;
}

/** Frames packets into one binary WebSocket message. */
export function encodeFrame(packets: readonly Buffer[]): Buffer {
  const header = Buffer.alloc(2);
  header.writeInt16BE(packets.length, 0);
  const parts: Buffer[] = [header];
  for (const packet of packets) {
    const length = Buffer.alloc(2);
    length.writeInt16BE(packet.length, 0);
    parts.push(length, packet);
  }
  return Buffer.concat(parts);
}

/** Kite's heartbeat: a one-byte binary message sent when nothing else is. */
export const HEARTBEAT = Buffer.alloc(1);
