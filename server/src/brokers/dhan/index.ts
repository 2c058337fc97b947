// Dhan (DhanHQ v2) as a broker folder: its definition (DHAN_* variables, FEED=dhan) and module — the consent login
// (redirect) and the pasted 24 h token (form), the order adapter, the scrip master CSV, the binary market feed and
// the order update socket. One module instance owns the scrip master its adapters share. See README.md for the
// wire facts and the choices made.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { BrokerError } from '@optionpilot/engine';
import type { BrokerDefinition, BrokerModule, BrokerModuleContext } from '../types';
import { InstrumentBook } from '../instruments/book';
import { DhanBroker } from './broker';
import { DhanHttp } from './http';
import { DHAN_MASTER_PATH, fetchDhanInstruments } from './instruments';
import {
  completeDhanConsentLogin,
  completeDhanTokenLogin,
  decodeDhanTokens,
  DHAN_LOGIN_FIELDS,
  dhanConsentLoginUrl,
  dhanProfile,
} from './login';
import { DhanMarketFeed } from './marketFeed';
import { createDhanOrderUpdates$, dhanOrderUpdateEvents$, orderUpdateUrl } from './orderUpdates';

export { DHAN_CAPABILITIES, DhanBroker } from './broker';
export { DHAN_LOGIN_FIELDS, encodeDhanTokens } from './login';

/** Dhan's production hosts (the order update socket's own host is derived from the WS root: orderUpdates.ts). */
export const DHAN_DEFAULT_ENDPOINTS = {
  apiRoot: 'https://api.dhan.co',
  loginUrl: 'https://auth.dhan.co/login/consentApp-login',
  wsRoot: 'wss://api-feed.dhan.co',
  masterRoot: 'https://images.dhan.co',
} as const;

export interface DhanModuleOptions {
  /** order-book polling interval while the order update socket is down; default 3 s */
  readonly pollIntervalMs?: number;
  readonly reconnectBackoffMs?: readonly number[];
  readonly scheduler?: SchedulerLike;
}

export function dhanModule(context: BrokerModuleContext, options: DhanModuleOptions = {}): BrokerModule {
  const { apiRoot, loginUrl, wsRoot } = context.endpoints;
  const login = { apiRoot, authRoot: new URL(loginUrl).origin, now: context.now };
  const fetchInstruments = () =>
    fetchDhanInstruments(`${context.endpoints.masterRoot ?? apiRoot}${DHAN_MASTER_PATH}`);
  // One download per IST day, shared by every account's adapter; positions and order rows name the security id.
  const instruments = new InstrumentBook(fetchInstruments, context.now, 'token');
  const scheduler = options.scheduler ?? asyncScheduler;

  return {
    type: 'dhan',
    label: 'Dhan',
    formLogin: {
      fields: DHAN_LOGIN_FIELDS,
      complete: ({ values }) => completeDhanTokenLogin(login, values),
    },
    redirectLogin: {
      // Dhan's login page needs a consent generated first (start); without one there is no URL to give.
      url: () => {
        throw new BrokerError(
          'rejected',
          'CONSENT_FIRST',
          'Dhan login starts by generating a consent',
          'dhan',
        );
      },
      start: ({ credentials }) => dhanConsentLoginUrl(login, credentials),
      // Dhan echoes no state: the callback is bound to the Connect of the same browser session (connection.ts).
      stateOf: () => undefined,
      stateInSession: true,
      complete: (input) => completeDhanConsentLogin(login, input),
    },
    setup: {
      portal: { name: 'Dhan web → My Profile → Access DhanHQ APIs', url: 'https://web.dhan.co/' },
      credentialLabels: { apiKey: 'client ID:API key (e.g. 1000000001:ab12cd34)', apiSecret: 'API secret' },
      sessionEnds: '24 hours after you log in',
      notes: [
        'On web.dhan.co → My Profile → Access DhanHQ APIs, generate an API key with the redirect URL shown here; save it here as your client ID, a colon and the key, with its secret.',
        "Under Static IP on the same page, set this server's IP as your primary IP: Dhan accepts orders only from it.",
        'Or log in without an app: paste the 24-hour access token generated on the same page, with your client ID.',
        "When your daily loss lock fires, OptionPilot also arms Dhan's P&L exit and kill switch for the rest of the day.",
      ],
    },
    createBroker: ({ session, onSessionEnded }) => {
      const tokens = decodeDhanTokens(session.accessToken);
      const http = new DhanHttp({
        apiRoot,
        ...tokens,
        ...(onSessionEnded === undefined ? {} : { onAuthExpired: onSessionEnded }),
      });
      return new DhanBroker({
        http,
        instruments,
        algoTag: context.algoTag,
        now: context.now,
        orderUpdates: (orderBook) =>
          createDhanOrderUpdates$({
            events$: dhanOrderUpdateEvents$({
              url: orderUpdateUrl(wsRoot),
              ...tokens,
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
      const tokens = decodeDhanTokens(session.accessToken);
      const profile = await dhanProfile(login, tokens);
      return { accountId: profile.dhanClientId, name: `Dhan ${profile.dhanClientId}` };
    },
    fetchInstruments,
    createFeed: ({ session, instrumentOf }) =>
      new DhanMarketFeed({
        wsRoot,
        tokens: decodeDhanTokens(session.accessToken),
        instrumentOf,
        now: context.now,
      }),
  };
}

/** Dhan's production hosts, DHAN_* variables and FEED=dhan. */
export const dhanBroker: BrokerDefinition = {
  type: 'dhan',
  feed: 'dhan',
  env: { prefix: 'DHAN', defaults: DHAN_DEFAULT_ENDPOINTS },
  create: (context) => dhanModule(context),
};
