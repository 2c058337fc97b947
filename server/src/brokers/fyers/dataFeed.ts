// FEED=fyers: Fyers' data socket (HSM, `<FYERS_WS_ROOT>/hsm/v1-5/prod`) as the engine's FeedSource, carrying the
// NIFTY 50 index and the option strikes in play. Binary frames (`hsm.ts`) become prices here and nowhere else. The
// socket authenticates with the access token's `hsm_key`, subscribes once the answer is "K", acknowledges data
// when asked to and pings to stay open. The connection, reconnects, resubscription and health are the shared
// SocketFeed's (../socketFeed.ts).
import type { BrokerInstrument } from '../types';
import { SocketFeed, type SocketFeedOptions, type SocketFeedProtocol } from '../socketFeed';
import {
  encodeAck,
  encodeAuth,
  encodeChannelResume,
  encodeSubscribe,
  encodeUnsubscribe,
  HSM_PING,
  HsmDecoder,
  hsmKeyOf,
  NIFTY_INDEX_TOPIC,
} from './hsm';
import { scripTopicOf } from './instruments';

export const FYERS_DATA_SOCKET_PATH = '/hsm/v1-5/prod';

export interface FyersDataFeedOptions extends SocketFeedOptions {
  readonly wsRoot: string;
  /** `APP_ID:ACCESS_TOKEN`, sent as the upgrade's Authorization header */
  readonly authorization: string;
  readonly accessToken: string;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  /** keep-alive interval; the official client pings every 30 s by default */
  readonly pingMs?: number;
}

/** The HSM protocol: a login frame, then binary subscriptions and price frames. */
function hsmProtocol(options: FyersDataFeedOptions): SocketFeedProtocol {
  return {
    kind: 'fyers',
    indexKey: NIFTY_INDEX_TOPIC,
    connection: () => ({
      url: `${options.wsRoot}${FYERS_DATA_SOCKET_PATH}`,
      headers: { Authorization: options.authorization },
    }),
    keyOf: (instrument) => scripTopicOf(instrument),
    session: (link) => {
      const decoder = new HsmDecoder();
      // The answer may ask for an acknowledgement every N data messages (the official client's counter).
      let ackEvery = 0;
      let sinceAck = 0;
      return {
        opened() {
          const hsmKey = hsmKeyOf(options.accessToken);
          // A token without an hsm_key cannot open a data session: the socket closes and backs off like a refusal.
          if (hsmKey === undefined) return link.close();
          link.send(encodeAuth(hsmKey));
        },
        message(data, isBinary) {
          if (!isBinary) return;
          let event;
          try {
            event = decoder.decode(data);
          } catch {
            return; // a corrupt frame: the next snapshot or update carries the prices again
          }
          if (event.type === 'connected') {
            if (!event.ok) return link.close();
            ackEvery = event.ackEvery;
            link.established();
            link.send(encodeChannelResume());
            link.every(options.pingMs ?? 30_000, () => link.send(HSM_PING));
            return;
          }
          if (event.type !== 'prices') return;
          if (event.messageNumber !== undefined && ackEvery > 0) {
            sinceAck += 1;
            if (sinceAck >= ackEvery) {
              sinceAck = 0;
              link.send(encodeAck(event.messageNumber));
            }
          }
          for (const price of event.prices) {
            if (price.ltp === undefined) continue;
            link.price({ key: price.topic, ltp: price.ltp, bid: price.bid, ask: price.ask });
          }
        },
        subscribe: (keys) => link.send(encodeSubscribe(keys)),
        unsubscribe: (keys) => link.send(encodeUnsubscribe(keys)),
      };
    },
  };
}

/** The Fyers data socket of one Fyers session. */
export class FyersDataFeed extends SocketFeed {
  constructor(options: FyersDataFeedOptions) {
    super(hsmProtocol(options), options);
  }
}
