// Upstox (API v2/v3) as a broker folder: its definition (UPSTOX_* variables, FEED=upstox) and module — OAuth2
// login, the order adapter, the instrument master and the market feed. See README.md for the wire details and the
// choices made.
import { z } from 'zod';
import type { BrokerDefinition, BrokerModule, BrokerModuleContext } from '../types';
import { upstoxRequest } from './http';
import { createDailyInstrumentIndex, fetchUpstoxInstruments, UPSTOX_INSTRUMENTS_PATH } from './instruments';
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
  masterRoot: 'https://assets.upstox.com',
} as const;

const profileSchema = z.object({
  status: z.literal('success'),
  data: z.object({ user_id: z.string(), user_name: z.string().default('') }),
});

export function upstoxModule(context: BrokerModuleContext): BrokerModule {
  const { endpoints } = context;
  // Without a configured root, production sends order writes to Upstox's own order host and reads the master
  // from its assets host; a fake given as the API root alone serves both.
  const ordersRoot = endpoints.ordersRoot ?? endpoints.apiRoot;
  const instrumentsUrl = `${endpoints.masterRoot ?? endpoints.apiRoot}${UPSTOX_INSTRUMENTS_PATH}`;
  const fetchInstruments = () => fetchUpstoxInstruments(instrumentsUrl);
  // One download per IST day, shared by every account's order adapter of this module.
  const instrumentIndex = createDailyInstrumentIndex({ fetch: fetchInstruments, now: context.now });

  return {
    type: 'upstox',
    label: 'Upstox',
    redirectLogin: {
      url: (input) => upstoxLoginUrl(endpoints.loginUrl, input),
      stateOf: (query) => query.state,
      complete: (input) => completeUpstoxLogin({ apiRoot: endpoints.apiRoot, now: context.now, ...input }),
    },
    setup: {
      portal: { name: 'Upstox developer apps', url: 'https://account.upstox.com/developer/apps' },
      credentialLabels: { apiKey: 'API key', apiSecret: 'API secret' },
      sessionEnds: '03:30 IST',
      notes: [],
    },
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
    async profile({ session }) {
      const body = await upstoxRequest({
        method: 'GET',
        url: `${endpoints.apiRoot}/v2/user/profile`,
        accessToken: session.accessToken,
      });
      const parsed = profileSchema.safeParse(body);
      if (!parsed.success) throw new Error('upstox profile answer not understood');
      return { accountId: parsed.data.data.user_id, name: parsed.data.data.user_name };
    },
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

/** Upstox's production hosts, UPSTOX_* variables and FEED=upstox. */
export const upstoxBroker: BrokerDefinition = {
  type: 'upstox',
  feed: 'upstox',
  env: { prefix: 'UPSTOX', defaults: UPSTOX_DEFAULT_ENDPOINTS },
  create: (context) => upstoxModule(context),
};
