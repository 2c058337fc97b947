// Upstox (API v2/v3) as a `BrokerModule`: OAuth2 login, the order adapter, the instrument master and the market
// feed. See README.md for the wire details and the choices made.
import type { BrokerModule, BrokerModuleContext } from '../types';
import { createDailyInstrumentIndex, fetchUpstoxInstruments, UPSTOX_INSTRUMENTS_URL } from './instruments';
import { completeUpstoxLogin, upstoxLoginUrl } from './login';
import { createUpstoxFeed } from './marketFeed';
import { createUpstoxBroker } from './orders';

export { upstoxCapabilities } from './capabilities';
export { upstoxTokenExpiry } from './login';

/** Upstox's production hosts. */
export const UPSTOX_DEFAULT_ENDPOINTS = {
  apiRoot: 'https://api.upstox.com',
  loginUrl: 'https://api.upstox.com/v2/login/authorization/dialog',
  wsRoot: 'wss://api.upstox.com',
  ordersRoot: 'https://api-hft.upstox.com',
} as const;

export interface UpstoxModuleOptions {
  /**
   * Where the instrument master is downloaded. Default: Upstox's assets host when the API root is Upstox's own,
   * otherwise the same path under the API root (how the fake in test/fakes/upstox serves it).
   */
  readonly instrumentsUrl?: string;
}

export function upstoxModule(
  context: BrokerModuleContext,
  moduleOptions: UpstoxModuleOptions = {},
): BrokerModule {
  const { endpoints } = context;
  // Upstox takes order writes on its own host; without a configured orders root, production goes there.
  const ordersRoot =
    endpoints.ordersRoot ??
    (endpoints.apiRoot === UPSTOX_DEFAULT_ENDPOINTS.apiRoot
      ? UPSTOX_DEFAULT_ENDPOINTS.ordersRoot
      : endpoints.apiRoot);
  const instrumentsUrl =
    moduleOptions.instrumentsUrl ??
    (endpoints.apiRoot === UPSTOX_DEFAULT_ENDPOINTS.apiRoot
      ? UPSTOX_INSTRUMENTS_URL
      : `${endpoints.apiRoot}${new URL(UPSTOX_INSTRUMENTS_URL).pathname}`);
  const fetchInstruments = () => fetchUpstoxInstruments(instrumentsUrl);
  // One download per IST day, shared by every account's order adapter of this module.
  const instrumentIndex = createDailyInstrumentIndex({ fetch: fetchInstruments, now: context.now });

  return {
    type: 'upstox',
    label: 'Upstox',
    loginUrl: (input) => upstoxLoginUrl(endpoints.loginUrl, input),
    stateOf: (query) => query.state,
    completeLogin: (input) => completeUpstoxLogin({ apiRoot: endpoints.apiRoot, now: context.now, ...input }),
    createBroker: ({ session, onSessionEnded }) =>
      createUpstoxBroker({
        apiRoot: endpoints.apiRoot,
        ordersRoot,
        accessToken: session.accessToken,
        ...(onSessionEnded === undefined ? {} : { onAuthExpired: onSessionEnded }),
        algoTag: context.algoTag,
        instruments: instrumentIndex,
        now: context.now,
      }),
    fetchInstruments,
    createFeed: ({ session, instrumentOf }) =>
      createUpstoxFeed({
        apiRoot: endpoints.apiRoot,
        accessToken: session.accessToken,
        instrumentOf,
        now: context.now,
      }),
  };
}
