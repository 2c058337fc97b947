// Zerodha (Kite Connect v3) as a broker folder: its definition (KITE_* variables, FEED=kite) and module — login,
// the order adapter, the NFO instrument master, the Kite Ticker feed and postbacks. One module instance owns the
// instrument book and the postback hub its adapters share.
import { z } from 'zod';
import type { BrokerDefinition, BrokerModule, BrokerModuleContext } from '../types';
import { KiteBroker } from './broker';
import { KiteHttp } from './http';
import { InstrumentBook } from '../instruments/book';
import { parseKiteInstruments } from './instruments';
import { completeKiteLogin, kiteLoginUrl } from './login';
import { KitePostbackHub, kitePostbackEndpoint } from './postbacks';
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

const profileSchema = z.object({ user_id: z.string(), user_name: z.string() });

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
  const instruments = new InstrumentBook(fetchInstruments, context.now);

  return {
    type: 'zerodha',
    label: 'Zerodha',
    postbacks,
    postback: kitePostbackEndpoint(postbacks),
    redirectLogin: {
      url: ({ credentials, state }) => kiteLoginUrl(loginUrl, credentials.apiKey, state),
      stateOf: (query) => query.state,
      complete: ({ credentials, query }) =>
        completeKiteLogin({ apiRoot, credentials, query, now: context.now() }),
    },
    setup: {
      portal: { name: 'Kite Connect developer console', url: 'https://developers.kite.trade/apps' },
      credentialLabels: { apiKey: 'API key', apiSecret: 'API secret' },
      sessionEnds: '06:00 IST',
      notes: ['Kite Connect is a paid subscription at Zerodha; the app must be of the "Connect" type.'],
    },
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
        algoTag: context.algoTag,
        registerPostbacks: (receiver) => postbacks.register(session.accountId, receiver),
        pollIntervalMs: options.pollIntervalMs,
      }),
    async profile({ credentials, session }) {
      const http = new KiteHttp({ apiRoot, apiKey: credentials.apiKey, accessToken: session.accessToken });
      const data = await http.request({ method: 'GET', path: '/user/profile', schema: profileSchema });
      return { accountId: data.user_id, name: data.user_name };
    },
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

/** Zerodha's production hosts, KITE_* variables and FEED=kite. */
export const zerodhaBroker: BrokerDefinition = {
  type: 'zerodha',
  feed: 'kite',
  env: {
    prefix: 'KITE',
    defaults: {
      apiRoot: 'https://api.kite.trade',
      loginUrl: 'https://kite.zerodha.com/connect/login',
      wsRoot: 'wss://ws.kite.trade',
    },
  },
  create: (context) => zerodhaModule(context),
};
