// ANT's market feed as the engine's FeedSource (FEED=aliceblue): the NOREN socket (noren.ts) with the NIFTY 50
// index and the option strikes in play on touchline. Each connection first makes a socket session over REST, then
// logs in; only after `{t: "ck", s: "OK"}` is it established (and everything subscribed). `tf` frames carry only
// the fields that changed, so the last price, bid and ask are kept per key. The connection, reconnects,
// resubscription and health are the shared SocketFeed's (../socketFeed.ts).
import type { BrokerInstrument } from '../types';
import { SocketFeed, type SocketFeedOptions, type SocketFeedProtocol } from '../socketFeed';
import type { AliceTokens } from './login';
import {
  NIFTY_INDEX_KEY,
  NOREN_HEARTBEAT,
  NOREN_PATH,
  norenLoginFrame,
  norenTouchline,
  readNorenFrame,
} from './noren';

export interface AliceMarketFeedOptions extends SocketFeedOptions {
  readonly wsRoot: string;
  readonly tokens: AliceTokens;
  /** `ws/createSocketSess` for the session; a failure closes the connection (it reconnects with backoff) */
  readonly createSocketSession: () => Promise<void>;
  readonly instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  readonly heartbeatEveryMs?: number;
}

const positive = (value: number | undefined): number | undefined =>
  value !== undefined && value > 0 ? value : undefined;

function norenFeedProtocol(options: AliceMarketFeedOptions): SocketFeedProtocol {
  return {
    kind: 'aliceblue',
    indexKey: NIFTY_INDEX_KEY,
    connection: () => ({ url: `${options.wsRoot}${NOREN_PATH}` }),
    keyOf: (instrument) => `NFO|${instrument.token}`,
    session: (link) => {
      const last = new Map<string, { ltp?: number; bid?: number; ask?: number }>();
      return {
        opened() {
          options.createSocketSession().then(
            () => link.send(norenLoginFrame(options.tokens.userId, options.tokens.userSession)),
            () => link.close(),
          );
        },
        message(data, isBinary) {
          if (isBinary) return;
          const frame = readNorenFrame(data.toString());
          if (frame.kind === 'login') {
            if (!frame.ok) return link.close();
            link.established();
            link.every(options.heartbeatEveryMs ?? 10_000, () => link.send(NOREN_HEARTBEAT));
            return;
          }
          if (frame.kind !== 'price') return;
          const known = last.get(frame.key) ?? {};
          const next = {
            ltp: positive(frame.ltp) ?? known.ltp,
            bid: positive(frame.bid) ?? known.bid,
            ask: positive(frame.ask) ?? known.ask,
          };
          last.set(frame.key, next);
          if (next.ltp === undefined) return;
          link.price({ key: frame.key, ltp: next.ltp, bid: next.bid, ask: next.ask });
        },
        subscribe: (keys) => link.send(norenTouchline('subscribe', keys)),
        unsubscribe: (keys) => link.send(norenTouchline('unsubscribe', keys)),
      };
    },
  };
}

/** ANT's feed for one Alice Blue session. */
export class AliceMarketFeed extends SocketFeed {
  constructor(options: AliceMarketFeedOptions) {
    super(norenFeedProtocol(options), options);
  }
}
