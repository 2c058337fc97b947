// The Kite Ticker as the engine's FeedSource: one WebSocket (`wsRoot?api_key=…&access_token=…`) carrying the
// NIFTY 50 index (token 256265) and the option strikes in play in `full` mode (best bid / ask). Binary packets
// become prices here and nowhere else; the connection, reconnects, resubscription and health are the shared
// SocketFeed's (../../socketFeed.ts).
import type { BrokerInstrument } from '../../types';
import { SocketFeed, type SocketFeedOptions, type SocketFeedProtocol } from '../../socketFeed';
import { decodeKiteFrame } from './packets';

export const NIFTY_INDEX_TOKEN = 256265;

export interface KiteTickerFeedOptions extends SocketFeedOptions {
  readonly wsRoot: string;
  readonly apiKey: string;
  readonly accessToken: string;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
}

/** Kite Ticker's protocol: JSON text requests, binary packets of prices. */
function kiteTickerProtocol(options: KiteTickerFeedOptions): SocketFeedProtocol {
  const tokens = (keys: readonly string[]): number[] => keys.map(Number);
  return {
    kind: 'zerodha',
    indexKey: String(NIFTY_INDEX_TOKEN),
    connection() {
      const url = new URL(options.wsRoot);
      url.searchParams.set('api_key', options.apiKey);
      url.searchParams.set('access_token', options.accessToken);
      return { url };
    },
    keyOf: (instrument) => (Number.isInteger(Number(instrument.token)) ? instrument.token : undefined),
    session: (link) => ({
      // The access token is in the URL: an open socket is a session.
      opened: () => link.established(),
      message(data, isBinary) {
        if (!isBinary) return;
        for (const packet of decodeKiteFrame(data)) {
          const { bid, ask, exchangeTime: time } = packet;
          link.price({ key: String(packet.token), ltp: packet.lastPrice, bid, ask, time });
        }
      },
      subscribe(keys) {
        link.send(JSON.stringify({ a: 'subscribe', v: tokens(keys) }));
        link.send(JSON.stringify({ a: 'mode', v: ['full', tokens(keys)] }));
      },
      unsubscribe(keys) {
        link.send(JSON.stringify({ a: 'unsubscribe', v: tokens(keys) }));
      },
    }),
  };
}

/** The Kite Ticker feed of one Kite session. */
export class KiteTickerFeed extends SocketFeed {
  constructor(options: KiteTickerFeedOptions) {
    super(kiteTickerProtocol(options), options);
  }
}
