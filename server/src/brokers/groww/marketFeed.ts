// FEED=groww: Groww's socket (socket.ts) as the engine's FeedSource, through the shared SocketFeed (reconnects with
// backoff, subscriptions carried to each new connection, `stale` after 5 s without an index tick, `down` while
// disconnected) like every other broker's socket feed. Subjects, as Groww's SDK builds them: the NIFTY 50's value
// on `/ld/indices/nse/price.NIFTY` (the index's exchange token in Groww's master), an option's last price on
// `/ld/fo/nse/price.<exchange_token>`; payloads `StocksSocketResponseProtoDto` (proto.ts). Options are quoted at
// their last price (bid = ask = LTP): the depth subjects (`…/book.<token>`) are not read.
import type { FeedSource } from '@optionpilot/engine';
import { SocketFeed, type SocketFeedProtocol } from '../socketFeed';
import type { BrokerInstrument } from '../types';
import type { GrowwHttp } from './http';
import { decodeLivePrice } from './proto';
import { createSocketCredentials, GrowwNatsSession } from './socket';

export const GROWW_INDEX_SUBJECT = '/ld/indices/nse/price.NIFTY';
export const growwOptionSubject = (exchangeToken: string): string => `/ld/fo/nse/price.${exchangeToken}`;

/** Groww's SDK pings every 60 s; a little more often keeps idle proxies from closing the socket. */
const PING_EVERY_MS = 30_000;

export interface GrowwMarketFeedOptions {
  readonly wsRoot: string;
  /** REST with the feed account's session: the socket-token call */
  readonly http: GrowwHttp;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  readonly now?: () => number;
  readonly staleAfterMs?: number;
  readonly backoffMs?: readonly number[];
}

export function growwFeedProtocol(
  options: Pick<GrowwMarketFeedOptions, 'wsRoot' | 'http'>,
): SocketFeedProtocol {
  return {
    kind: 'groww',
    indexKey: GROWW_INDEX_SUBJECT,
    connection: () => ({ url: options.wsRoot }),
    keyOf: (instrument) => (instrument.token === '' ? undefined : growwOptionSubject(instrument.token)),
    session(link) {
      const nats = new GrowwNatsSession({
        send: (frame) => link.send(frame),
        close: () => link.close(),
        credentials: () => createSocketCredentials(options.http),
        ready: () => {
          link.established();
          link.every(PING_EVERY_MS, () => nats.ping());
        },
        message: (subject, payload) => {
          const price = decodeLivePrice(payload);
          if (price !== undefined) link.price({ key: subject, ltp: price.ltp, time: price.time });
        },
      });
      return {
        opened: () => undefined,
        message: (data) => nats.data(data),
        subscribe: (keys) => keys.forEach((key) => nats.subscribe(key)),
        unsubscribe: (keys) => keys.forEach((key) => nats.unsubscribe(key)),
      };
    },
  };
}

export function createGrowwMarketFeed(options: GrowwMarketFeedOptions): FeedSource {
  const { wsRoot, http, ...feed } = options;
  return new SocketFeed(growwFeedProtocol({ wsRoot, http }), feed);
}
