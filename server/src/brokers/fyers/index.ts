// Fyers (API v3) as a broker folder: its definition (FYERS_* variables, FEED=fyers) and module — redirect login,
// the order adapter, the NSE_FO symbol master, the order socket and the data socket feed. One module instance
// owns the symbol master its adapters share. See README.md for the wire facts and the choices made.
import type { BrokerDefinition, BrokerModule, BrokerModuleContext } from '../types';
import { FyersBroker } from './broker';
import { FyersDataFeed } from './dataFeed';
import { FyersHttp } from './http';
import { InstrumentBook } from '../instruments/book';
import { FYERS_MASTER_PATH, parseFyersMaster } from './instruments';
import { completeFyersLogin, fyersLoginUrl, fyersProfile } from './login';

export { FYERS_CAPABILITIES } from './broker';

/** Fyers' production hosts. */
export const FYERS_DEFAULT_ENDPOINTS = {
  apiRoot: 'https://api-t1.fyers.in',
  loginUrl: 'https://api-t1.fyers.in/api/v3/generate-authcode',
  wsRoot: 'wss://socket.fyers.in',
  masterRoot: 'https://public.fyers.in',
} as const;

export interface FyersModuleOptions {
  /** how often adapters poll the order book while the order socket is down; default 3 s */
  readonly pollIntervalMs?: number;
}

export function fyersModule(context: BrokerModuleContext, options: FyersModuleOptions = {}): BrokerModule {
  const { apiRoot, loginUrl, wsRoot } = context.endpoints;
  // Without a master root (a fake given as the API root alone) the master is read from the API root.
  const masterUrl = `${context.endpoints.masterRoot ?? apiRoot}${FYERS_MASTER_PATH}`;
  // The master needs no session: one download serves every account of the day.
  const fetchInstruments = async () => parseFyersMaster(await FyersHttp.text(masterUrl));
  const instruments = new InstrumentBook(fetchInstruments, context.now);

  return {
    type: 'fyers',
    label: 'Fyers',
    redirectLogin: {
      url: ({ credentials, state, redirectUri }) =>
        fyersLoginUrl(loginUrl, { appId: credentials.apiKey, state, redirectUri }),
      stateOf: (query) => query.state,
      complete: ({ credentials, query }) =>
        completeFyersLogin({ apiRoot, credentials, query, now: context.now() }),
    },
    setup: {
      portal: { name: 'Fyers API dashboard', url: 'https://myapi.fyers.in/dashboard' },
      credentialLabels: { apiKey: 'App ID', apiSecret: 'Secret ID' },
      sessionEnds: '06:00 IST',
      notes: [
        'Create a web app with the redirect URL shown here, and add the static IP address of this server in the app.',
      ],
    },
    createBroker: ({ credentials, session, onSessionEnded }) =>
      new FyersBroker({
        http: new FyersHttp({
          apiRoot,
          appId: credentials.apiKey,
          accessToken: session.accessToken,
          ...(onSessionEnded === undefined ? {} : { onAuthExpired: onSessionEnded }),
        }),
        instruments,
        wsRoot,
        now: context.now,
        algoTag: context.algoTag,
        ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
      }),
    profile: ({ credentials, session }) =>
      fyersProfile(new FyersHttp({ apiRoot, appId: credentials.apiKey, accessToken: session.accessToken })),
    fetchInstruments,
    createFeed: ({ credentials, session, instrumentOf }) =>
      new FyersDataFeed({
        wsRoot,
        authorization: `${credentials.apiKey}:${session.accessToken}`,
        accessToken: session.accessToken,
        instrumentOf,
        now: context.now,
      }),
  };
}

/** Fyers' production hosts, FYERS_* variables and FEED=fyers. */
export const fyersBroker: BrokerDefinition = {
  type: 'fyers',
  feed: 'fyers',
  env: { prefix: 'FYERS', defaults: FYERS_DEFAULT_ENDPOINTS },
  create: (context) => fyersModule(context),
};
