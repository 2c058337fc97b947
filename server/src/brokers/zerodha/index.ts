// Zerodha (Kite Connect v3) as a BrokerModule: login, the order adapter, the NFO instrument master and the Kite
// Ticker feed. One module instance owns the instrument book and the postback hub its adapters share.
import type { BrokerModule, BrokerModuleContext } from '../types';
import { KiteBroker } from './broker';
import { KiteHttp } from './http';
import { KiteInstrumentBook, parseKiteInstruments } from './instruments';
import { completeKiteLogin, kiteLoginUrl } from './login';
import { KitePostbackHub } from './postbacks';
import { KiteTickerFeed } from './ticker/tickerFeed';

export { KITE_CAPABILITIES } from './broker';
export { KitePostbackHub } from './postbacks';

/** The Zerodha module, with the postback hub the `/api/broker/zerodha/postback` route delivers to. */
export interface ZerodhaModule extends BrokerModule {
  readonly postbacks: KitePostbackHub;
}

export interface ZerodhaModuleOptions {
  /** how often adapters poll the order book while they have open orders (0: never); default 3 s */
  readonly pollIntervalMs?: number;
}

export function zerodhaModule(
  context: BrokerModuleContext,
  options: ZerodhaModuleOptions = {},
): ZerodhaModule {
  const { apiRoot, loginUrl, wsRoot } = context.endpoints;
  const ordersRoot = context.endpoints.ordersRoot ?? apiRoot;
  const postbacks = new KitePostbackHub();
  // The instrument dump needs no session: one download serves every account of the day.
  const fetchInstruments = async () =>
    parseKiteInstruments(await new KiteHttp({ apiRoot, apiKey: '' }).text('/instruments/NFO'));
  const instruments = new KiteInstrumentBook(fetchInstruments, context.now);

  return {
    type: 'zerodha',
    label: 'Zerodha',
    postbacks,
    loginUrl: ({ credentials, state }) => kiteLoginUrl(loginUrl, credentials.apiKey, state),
    stateOf: (query) => query.state,
    completeLogin: ({ credentials, query }) =>
      completeKiteLogin({ apiRoot, credentials, query, now: context.now() }),
    createBroker: ({ credentials, session, onSessionEnded }) =>
      new KiteBroker({
        http: new KiteHttp({
          apiRoot: ordersRoot,
          apiKey: credentials.apiKey,
          accessToken: session.accessToken,
          ...(onSessionEnded === undefined ? {} : { onAuthExpired: onSessionEnded }),
        }),
        instruments,
        now: context.now,
        apiSecret: credentials.apiSecret,
        registerPostbacks: (receiver) => postbacks.register(session.accountId, receiver),
        pollIntervalMs: options.pollIntervalMs,
      }),
    fetchInstruments,
    createFeed: ({ credentials, session, instrumentOf }) =>
      new KiteTickerFeed({
        wsRoot,
        apiKey: credentials.apiKey,
        accessToken: session.accessToken,
        instrumentOf,
        now: context.now,
      }),
  };
}
