// SmartStream 2.0 packets as Angel One sends them (little-endian; see the layout in
// server/src/brokers/angelone/smartStream.ts): written here from the documented layout, independently of the
// module's decoder, so the tests check one against the other. Prices go as int64 paise.
export const MODE = { ltp: 1, quote: 2, snapQuote: 3 } as const;

const LENGTH: Readonly<Record<number, number>> = { 1: 51, 2: 123, 3: 379 };

export interface PacketInput {
  readonly mode: number;
  readonly exchangeType: number;
  readonly token: string;
  readonly sequence: number;
  /** epoch ms */
  readonly time: number;
  /** rupees */
  readonly ltp: number;
  /** SnapQuote only: best bid and ask (rupees) */
  readonly bid?: number;
  readonly ask?: number;
}

const paise = (rupees: number): bigint => BigInt(Math.round(rupees * 100));

export function encodePacket(p: PacketInput): Buffer {
  const buf = Buffer.alloc(LENGTH[p.mode] ?? 51);
  buf.writeUInt8(p.mode, 0);
  buf.writeUInt8(p.exchangeType, 1);
  buf.write(p.token, 2, 25, 'ascii');
  buf.writeBigInt64LE(BigInt(p.sequence), 27);
  buf.writeBigInt64LE(BigInt(p.time), 35);
  buf.writeBigInt64LE(paise(p.ltp), 43);
  if (p.mode >= MODE.quote) {
    buf.writeBigInt64LE(paise(p.ltp), 91); // open
    buf.writeBigInt64LE(paise(p.ltp), 99); // high
    buf.writeBigInt64LE(paise(p.ltp), 107); // low
    buf.writeBigInt64LE(paise(p.ltp), 115); // close
  }
  if (p.mode === MODE.snapQuote) {
    buf.writeBigInt64LE(BigInt(p.time), 123);
    // Best five: five buy levels (flag 1) then five sell levels (flag 0), 20 bytes each from offset 147.
    for (let level = 0; level < 5; level += 1) {
      for (const [side, base, step] of [
        [1, p.bid ?? p.ltp, -0.05],
        [0, p.ask ?? p.ltp, 0.05],
      ] as const) {
        const at = 147 + (side === 1 ? level : 5 + level) * 20;
        buf.writeUInt16LE(side, at);
        buf.writeBigInt64LE(BigInt(65 * (level + 1)), at + 2);
        buf.writeBigInt64LE(paise(Math.max(0.05, base + step * level)), at + 10);
        buf.writeUInt16LE(level + 1, at + 18);
      }
    }
  }
  return buf;
}
