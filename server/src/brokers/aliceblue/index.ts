// Alice Blue (ANT) as a broker folder: its definition (ALICEBLUE_* variables, FEED=aliceblue) and module — the
// vendor redirect login, the order adapter, the NFO contract master, and the NOREN socket for prices and order
// updates. One module instance owns the contract master its adapters share. See README.md for the wire facts and
// the choices made.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { BrokerDefinition, BrokerModule, BrokerModuleContext } from '../types';
import { InstrumentBook } from '../instruments/book';
import { AliceBroker } from './broker';
import { AliceHttp } from './http';
import { ALICE_MASTER_PATH, fetchAliceInstruments } from './instruments';
import {
  aliceLoginUrl,
  aliceProfile,
  completeAliceLogin,
  decodeAliceTokens,
  type AliceTokens,
} from './login';
import { AliceMarketFeed } from './marketFeed';
import { aliceOrderEvents$, createAliceOrderUpdates$ } from './orderUpdates';

export { ALICE_CAPABILITIES, AliceBroker } from './broker';

/** Alice Blue's production hosts. */
export const ALICEBLUE_DEFAULT_ENDPOINTS = {
  apiRoot: 'https://ant.aliceblueonline.com',
  loginUrl: 'https://ant.aliceblueonline.com/',
  wsRoot: 'wss://ws1.aliceblueonline.com',
  masterRoot: 'https://v2api.aliceblueonline.com',
} as const;

export interface AliceBlueModuleOptions {
  /** order-book polling interval while the order socket is down; default 3 s */
  readonly pollIntervalMs?: number;
  /** waits before order socket reconnects */
  readonly reconnectBackoffMs?: readonly number[];
  readonly scheduler?: SchedulerLike;
}

export function aliceblueModule(
  context: BrokerModuleContext,
  options: AliceBlueModuleOptions = {},
): BrokerModule {
  const { apiRoot, loginUrl, wsRoot } = context.endpoints;
  const masterUrl = `${context.endpoints.masterRoot ?? apiRoot}${ALICE_MASTER_PATH}`;
  const fetchInstruments = () => fetchAliceInstruments(masterUrl);
  // One download per IST day, shared by every account's adapter of this module.
  const instruments = new InstrumentBook(fetchInstruments, context.now, 'token');
  const scheduler = options.scheduler ?? asyncScheduler;
  const httpOf = (tokens: AliceTokens, onAuthExpired?: () => void) =>
    new AliceHttp({ apiRoot, ...tokens, ...(onAuthExpired === undefined ? {} : { onAuthExpired }) });

  return {
    type: 'aliceblue',
    label: 'Alice Blue',
    redirectLogin: {
      url: ({ credentials, state }) => aliceLoginUrl(loginUrl, credentials.apiKey, state),
      stateOf: (query) => query.state,
      // ANT documents only `authCode` and `userId` on the redirect: without a `state`, the callback completes the
      // browser session's latest Connect click (connection.ts).
      stateInSession: true,
      complete: (input) => completeAliceLogin({ apiRoot, now: context.now() }, input),
    },
    setup: {
      portal: { name: 'ANT API portal', url: 'https://ant.aliceblueonline.com/' },
      credentialLabels: { apiKey: 'App code', apiSecret: 'API secret' },
      sessionEnds: '24 hours after you log in',
      notes: [
        "In ANT (Apps → API) create an app; enter the redirect URL shown here and this server's static IP, then copy the app code and API secret.",
        'Alice Blue sessions last 24 hours with no refresh: log in again here each trading day before the open.',
        'OptionPilot sends protected limit orders and stop-limit stops (no market or SL-M orders from algos).',
      ],
    },
    createBroker: ({ session, onSessionEnded }) => {
      const tokens = decodeAliceTokens(session.accessToken);
      const http = httpOf(tokens, onSessionEnded);
      return new AliceBroker({
        http,
        instruments,
        algoTag: context.algoTag,
        now: context.now,
        orderUpdates: (orderBook) =>
          createAliceOrderUpdates$({
            events$: aliceOrderEvents$({
              wsRoot,
              tokens,
              createSocketSession: () => http.createSocketSession(),
              backoffMs: options.reconnectBackoffMs ?? [1_000, 2_000, 5_000, 10_000, 30_000],
              scheduler,
            }),
            orderBook,
            now: context.now,
            scheduler,
            ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
          }),
      });
    },
    async profile({ session }) {
      const profile = await aliceProfile(apiRoot, decodeAliceTokens(session.accessToken));
      return { accountId: profile.accountId, name: profile.name };
    },
    fetchInstruments,
    createFeed: ({ session, instrumentOf }) => {
      const tokens = decodeAliceTokens(session.accessToken);
      const http = httpOf(tokens);
      return new AliceMarketFeed({
        wsRoot,
        tokens,
        createSocketSession: () => http.createSocketSession(),
        instrumentOf,
        now: context.now,
      });
    },
  };
}

/** Alice Blue's production hosts, ALICEBLUE_* variables and FEED=aliceblue. */
export const aliceblueBroker: BrokerDefinition = {
  type: 'aliceblue',
  feed: 'aliceblue',
  env: { prefix: 'ALICEBLUE', defaults: ALICEBLUE_DEFAULT_ENDPOINTS },
  create: (context) => aliceblueModule(context),
};
