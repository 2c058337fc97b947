// SmartStream 2.0, Angel One's market data socket (`<ANGELONE_WS_ROOT>/smart-stream`): JSON text requests in,
// binary packets out, one packet per frame, little-endian. Every packet starts with
//   0 mode (uint8: 1 LTP, 2 Quote, 3 SnapQuote) · 1 exchange type (uint8: 1 nse_cm, 2 nse_fo) · 2–26 token (25
//   bytes ASCII, NUL-padded) · 27 sequence (int64) · 35 exchange time (int64, epoch ms) · 43 LTP (int64, paise)
// — 51 bytes in LTP mode. Quote (123 bytes) adds LTQ, ATP, volume, buy/sell totals (doubles) and OHLC; SnapQuote
// (379 bytes) adds the last trade time, OI, OI change, the best five (10 × 20 bytes at 147: flag uint16 — 1 buy,
// 0 sell —, quantity int64, price int64 paise, orders uint16) and circuit / 52-week limits. The official JS client
// reads the LTP of LTP-mode packets as an int32; it is an int64 here, as in Angel's documentation.
export const SMART_STREAM_PATH = '/smart-stream';

/** The NIFTY 50 index in the scrip master (NSE, `AMXIDX`). */
export const NIFTY_INDEX_TOKEN = '99926000';

export const EXCHANGE_TYPE = { nseCm: 1, nseFo: 2 } as const;
export const MODE = { ltp: 1, quote: 2, snapQuote: 3 } as const;
export const ACTION = { unsubscribe: 0, subscribe: 1 } as const;

const LTP_LENGTH = 51;
const SNAP_QUOTE_LENGTH = 379;
const BEST_FIVE_AT = 147;

/** One decoded packet; prices in rupees. */
export interface SmartStreamPacket {
  readonly mode: number;
  readonly exchangeType: number;
  readonly token: string;
  /** epoch ms */
  readonly exchangeTime: number;
  readonly ltp: number;
  /** best bid / ask of a SnapQuote packet, when its depth has one */
  readonly bid?: number;
  readonly ask?: number;
}

const rupees = (paise: bigint): number => Number(paise) / 100;

/** A binary frame as a packet; undefined for a frame too short for its mode. */
export function decodeSmartStreamPacket(frame: Buffer): SmartStreamPacket | undefined {
  if (frame.length < LTP_LENGTH) return undefined;
  const mode = frame.readUInt8(0);
  const end = frame.indexOf(0, 2);
  const token = frame.toString('ascii', 2, end < 0 || end > 27 ? 27 : end);
  const packet = {
    mode,
    exchangeType: frame.readUInt8(1),
    token,
    exchangeTime: Number(frame.readBigInt64LE(35)),
    ltp: rupees(frame.readBigInt64LE(43)),
  };
  if (mode !== MODE.snapQuote || frame.length < SNAP_QUOTE_LENGTH) return packet;
  let bid: number | undefined;
  let ask: number | undefined;
  for (let i = 0; i < 10; i += 1) {
    const at = BEST_FIVE_AT + i * 20;
    const quantity = frame.readBigInt64LE(at + 2);
    const price = rupees(frame.readBigInt64LE(at + 10));
    if (quantity <= 0n || !(price > 0)) continue;
    if (frame.readUInt16LE(at) === 1) bid = bid === undefined ? price : Math.max(bid, price);
    else ask = ask === undefined ? price : Math.min(ask, price);
  }
  return {
    ...packet,
    ...(bid === undefined ? {} : { bid }),
    ...(ask === undefined ? {} : { ask }),
  };
}

/** A subscribe / unsubscribe request for tokens of one exchange type in one mode. */
export function smartStreamRequest(
  action: (typeof ACTION)[keyof typeof ACTION],
  mode: (typeof MODE)[keyof typeof MODE],
  exchangeType: (typeof EXCHANGE_TYPE)[keyof typeof EXCHANGE_TYPE],
  tokens: readonly string[],
): string {
  return JSON.stringify({ action, params: { mode, tokenList: [{ exchangeType, tokens: [...tokens] }] } });
}
