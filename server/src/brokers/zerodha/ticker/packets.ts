// Decodes Kite Ticker binary frames (Kite Connect v3 WebSocket docs): int16 packet count, then per packet an
// int16 length and the packet; big-endian int32 fields, prices in paise. Lengths tell the mode: tradable
// instruments 8 (ltp), 44 (quote), 184 (full, with five depth levels a side); indices 8, 28 (quote), 32 (full).

/** One decoded packet, in rupees. Bid / ask are the best depth levels (full mode only). */
export interface KitePacket {
  readonly token: number;
  readonly lastPrice: number;
  readonly isIndex: boolean;
  readonly volume?: number;
  readonly bid?: number;
  readonly ask?: number;
  /** epoch ms of the exchange timestamp (full mode), when non-zero */
  readonly exchangeTime?: number;
}

/** Indices live in segment 9 (NSE indices): the low byte of the instrument token. */
const INDICES_SEGMENT = 9;

function decodePacket(buf: Buffer): KitePacket | undefined {
  if (buf.length < 8) return undefined;
  const token = buf.readInt32BE(0);
  const lastPrice = buf.readInt32BE(4) / 100;
  const isIndex = (token & 0xff) === INDICES_SEGMENT;
  if (isIndex) {
    const exchangeSeconds = buf.length >= 32 ? buf.readInt32BE(28) : 0;
    return {
      token,
      lastPrice,
      isIndex,
      ...(exchangeSeconds > 0 ? { exchangeTime: exchangeSeconds * 1_000 } : {}),
    };
  }
  if (buf.length < 44) return { token, lastPrice, isIndex };
  const volume = buf.readInt32BE(16);
  if (buf.length < 184) return { token, lastPrice, isIndex, volume };
  const exchangeSeconds = buf.readInt32BE(60);
  // Depth starts at byte 64: five bids then five asks, 12 bytes each (qty, price, orders, padding).
  const bestBid = buf.readInt32BE(64 + 4) / 100;
  const bestAsk = buf.readInt32BE(64 + 5 * 12 + 4) / 100;
  return {
    token,
    lastPrice,
    isIndex,
    volume,
    ...(bestBid > 0 ? { bid: bestBid } : {}),
    ...(bestAsk > 0 ? { ask: bestAsk } : {}),
    ...(exchangeSeconds > 0 ? { exchangeTime: exchangeSeconds * 1_000 } : {}),
  };
}

/** The packets of one binary message; a one-byte heartbeat or a truncated frame yields none. */
export function decodeKiteFrame(buf: Buffer): KitePacket[] {
  if (buf.length < 2) return [];
  const count = buf.readInt16BE(0);
  const packets: KitePacket[] = [];
  let offset = 2;
  for (let i = 0; i < count && offset + 2 <= buf.length; i += 1) {
    const length = buf.readInt16BE(offset);
    offset += 2;
    if (offset + length > buf.length) break;
    const packet = decodePacket(buf.subarray(offset, offset + length));
    if (packet) packets.push(packet);
    offset += length;
  }
  return packets;
}
