// Dhan's live market feed v2 as the engine's FeedSource (FEED=dhan): one WebSocket to
// `<DHAN_WS_ROOT>?version=2&token=<access token>&clientId=<client id>&authType=2` (authenticated by the URL), JSON
// subscribe requests `{RequestCode, InstrumentCount, InstrumentList: [{ExchangeSegment, SecurityId}]}` (15 ticker,
// 17 quote, 21 full; 16 / 18 / 22 unsubscribe; at most 100 instruments a message), binary little-endian packets:
//   header (8 bytes): 0 response code u8 · 1 message length i16 · 3 exchange segment u8 (0 IDX_I, 2 NSE_FNO) ·
//   4 security id i32
//   ticker (code 2, 16 bytes): 8 LTP f32 · 12 LTT i32 (epoch s)
//   full (code 8, 162 bytes): 8 LTP f32 · 12 LTQ i16 · 14 LTT i32 · … · 62 depth, 5 × 20 bytes of bid qty i32, ask
//   qty i32, bid orders i16, ask orders i16, bid price f32, ask price f32 (the first level is the best)
//   disconnect (code 50): 8 reason i16 (805 too many connections, 807 token expired, …)
// The NIFTY 50 index (IDX_I 13) goes in ticker mode, the option strikes in play in full mode (best bid / ask).
// Connection, reconnects, resubscription and health are the shared SocketFeed's.
import type { BrokerInstrument } from '../types';
import { SocketFeed, type SocketFeedOptions, type SocketFeedProtocol } from '../socketFeed';
import type { DhanTokens } from './login';

export const NIFTY_INDEX_SECURITY_ID = '13';
export const SEGMENT = { IDX_I: 0, NSE_FNO: 2 } as const;
export const REQUEST = { ticker: 15, tickerOff: 16, full: 21, fullOff: 22 } as const;
export const RESPONSE = { ticker: 2, quote: 4, full: 8, disconnect: 50 } as const;
const MAX_PER_REQUEST = 100;

/** One decoded price packet (rupees). */
export interface DhanPacket {
  readonly code: number;
  readonly segment: number;
  readonly securityId: string;
  readonly ltp: number;
  /** epoch ms, when the packet carries a last trade time */
  readonly time?: number;
  readonly bid?: number;
  readonly ask?: number;
}

/** A binary frame as a packet; undefined for a frame of another kind or too short for its kind. */
export function decodeDhanPacket(frame: Buffer): DhanPacket | undefined {
  if (frame.length < 16) return undefined;
  const code = frame.readUInt8(0);
  const base = {
    code,
    segment: frame.readUInt8(3),
    securityId: String(frame.readInt32LE(4)),
    ltp: frame.readFloatLE(8),
  };
  const round = (v: number): number => Math.round(v * 100) / 100;
  if (code === RESPONSE.ticker) {
    const ltt = frame.readInt32LE(12);
    return { ...base, ltp: round(base.ltp), ...(ltt > 0 ? { time: ltt * 1_000 } : {}) };
  }
  if (code === RESPONSE.full && frame.length >= 162) {
    const ltt = frame.readInt32LE(14);
    const bid = frame.readFloatLE(62 + 12);
    const ask = frame.readFloatLE(62 + 16);
    return {
      ...base,
      ltp: round(base.ltp),
      ...(ltt > 0 ? { time: ltt * 1_000 } : {}),
      ...(bid > 0 ? { bid: round(bid) } : {}),
      ...(ask > 0 ? { ask: round(ask) } : {}),
    };
  }
  return undefined;
}

/** Subscribe / unsubscribe requests for security ids of one segment, 100 a message. */
export function dhanFeedRequests(
  requestCode: number,
  segment: keyof typeof SEGMENT,
  ids: readonly string[],
): string[] {
  const out: string[] = [];
  for (let i = 0; i < ids.length; i += MAX_PER_REQUEST) {
    const batch = ids.slice(i, i + MAX_PER_REQUEST);
    out.push(
      JSON.stringify({
        RequestCode: requestCode,
        InstrumentCount: batch.length,
        InstrumentList: batch.map((SecurityId) => ({ ExchangeSegment: segment, SecurityId })),
      }),
    );
  }
  return out;
}

export interface DhanMarketFeedOptions extends SocketFeedOptions {
  readonly wsRoot: string;
  readonly tokens: DhanTokens;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
}

const INDEX_KEY = `idx:${NIFTY_INDEX_SECURITY_ID}`;

function dhanFeedProtocol(options: DhanMarketFeedOptions): SocketFeedProtocol {
  return {
    kind: 'dhan',
    indexKey: INDEX_KEY,
    connection: () => {
      const url = new URL(options.wsRoot);
      url.searchParams.set('version', '2');
      url.searchParams.set('token', options.tokens.accessToken);
      url.searchParams.set('clientId', options.tokens.clientId);
      url.searchParams.set('authType', '2');
      return { url };
    },
    keyOf: (instrument) => instrument.token,
    session: (link) => {
      const request = (on: boolean, keys: readonly string[]): void => {
        if (keys.includes(INDEX_KEY)) {
          for (const m of dhanFeedRequests(on ? REQUEST.ticker : REQUEST.tickerOff, 'IDX_I', [
            NIFTY_INDEX_SECURITY_ID,
          ]))
            link.send(m);
        }
        const ids = keys.filter((key) => key !== INDEX_KEY);
        for (const m of dhanFeedRequests(on ? REQUEST.full : REQUEST.fullOff, 'NSE_FNO', ids)) link.send(m);
      };
      return {
        // The URL authenticated the upgrade: an open socket is a session.
        opened: () => link.established(),
        message(data, isBinary) {
          if (!isBinary) return;
          if (data.length >= 8 && data.readUInt8(0) === RESPONSE.disconnect) {
            link.close();
            return;
          }
          const packet = decodeDhanPacket(data);
          if (packet === undefined) return;
          const index = packet.segment === SEGMENT.IDX_I;
          link.price({
            key: index ? `idx:${packet.securityId}` : packet.securityId,
            ltp: packet.ltp,
            bid: packet.bid,
            ask: packet.ask,
            // Not packet.time: Dhan's LTT counts seconds in IST, not UTC (**verify**); the receipt time is used.
          });
        },
        subscribe: (keys) => request(true, keys),
        unsubscribe: (keys) => request(false, keys),
      };
    },
  };
}

/** Dhan's market feed for one session. */
export class DhanMarketFeed extends SocketFeed {
  constructor(options: DhanMarketFeedOptions) {
    super(dhanFeedProtocol(options), options);
  }
}
