// SmartStream 2.0 as the engine's FeedSource (FEED=angelone): one WebSocket to `<ANGELONE_WS_ROOT>/smart-stream`,
// authenticated by headers (`Authorization: Bearer <jwt>`, `x-api-key`, `x-client-code`, `x-feed-token`), carrying
// the NIFTY 50 index in LTP mode and the option strikes in play in SnapQuote mode (best bid / ask). Packets become
// prices here and nowhere else; a text `ping` goes every 10 s (Angel answers `pong`). The connection, reconnects,
// resubscription and health are the shared SocketFeed's (../socketFeed.ts).
import type { BrokerInstrument } from '../types';
import { SocketFeed, type SocketFeedOptions, type SocketFeedProtocol } from '../socketFeed';
import type { AngelTokens } from './session';
import {
  ACTION,
  decodeSmartStreamPacket,
  EXCHANGE_TYPE,
  MODE,
  NIFTY_INDEX_TOKEN,
  SMART_STREAM_PATH,
  smartStreamRequest,
} from './smartStream';

export interface AngelMarketFeedOptions extends SocketFeedOptions {
  readonly wsRoot: string;
  readonly apiKey: string;
  readonly tokens: AngelTokens;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  readonly pingEveryMs?: number;
}

/** The index is a cash-segment token; option keys are F&O tokens. */
const INDEX_KEY = `cm:${NIFTY_INDEX_TOKEN}`;

/** SmartStream's protocol: JSON text requests, binary price packets. */
function smartStreamProtocol(options: AngelMarketFeedOptions): SocketFeedProtocol {
  const { tokens, apiKey } = options;
  return {
    kind: 'angelone',
    indexKey: INDEX_KEY,
    connection: () => ({
      url: `${options.wsRoot}${SMART_STREAM_PATH}`,
      headers: {
        Authorization: `Bearer ${tokens.jwt}`,
        'x-api-key': apiKey,
        'x-client-code': tokens.clientCode,
        'x-feed-token': tokens.feedToken,
      },
    }),
    keyOf: (instrument) => instrument.token,
    session: (link) => {
      const request = (action: (typeof ACTION)[keyof typeof ACTION], keys: readonly string[]): void => {
        if (keys.includes(INDEX_KEY)) {
          link.send(smartStreamRequest(action, MODE.ltp, EXCHANGE_TYPE.nseCm, [NIFTY_INDEX_TOKEN]));
        }
        const options = keys.filter((key) => key !== INDEX_KEY);
        if (options.length > 0) {
          link.send(smartStreamRequest(action, MODE.snapQuote, EXCHANGE_TYPE.nseFo, options));
        }
      };
      return {
        opened() {
          // The headers authenticated the upgrade: an open socket is a session.
          link.established();
          link.every(options.pingEveryMs ?? 10_000, () => link.send('ping'));
        },
        message(data, isBinary) {
          // Text frames are `pong` and error answers to requests; prices come only in binary frames.
          if (!isBinary) return;
          const packet = decodeSmartStreamPacket(data);
          if (packet === undefined) return;
          const index = packet.exchangeType === EXCHANGE_TYPE.nseCm;
          link.price({
            key: index ? `cm:${packet.token}` : packet.token,
            ltp: packet.ltp,
            bid: packet.bid,
            ask: packet.ask,
            time: packet.exchangeTime > 0 ? packet.exchangeTime : undefined,
          });
        },
        subscribe: (keys) => request(ACTION.subscribe, keys),
        unsubscribe: (keys) => request(ACTION.unsubscribe, keys),
      };
    },
  };
}

/** SmartStream for one Angel One session. */
export class AngelMarketFeed extends SocketFeed {
  constructor(options: AngelMarketFeedOptions) {
    super(smartStreamProtocol(options), options);
  }
}
