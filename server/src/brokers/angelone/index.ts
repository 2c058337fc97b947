// Angel One (SmartAPI) as a broker folder: its definition (ANGELONE_* variables, FEED=angelone) and module — the
// daily form login (client code, MPIN, TOTP) and the publisher-login redirect, the order adapter, the scrip master,
// SmartStream 2.0 and the order-status socket. One module instance owns the scrip master its adapters share. See
// README.md for the wire facts and the choices made.
import { networkInterfaces } from 'node:os';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { BrokerDefinition, BrokerModule, BrokerModuleContext } from '../types';
import { AngelBroker } from './broker';
import { AngelHttp } from './http';
import { InstrumentBook } from '../instruments/book';
import { ANGEL_MASTER_PATH, fetchAngelInstruments } from './instruments';
import {
  ANGEL_LOGIN_FIELDS,
  angelProfile,
  angelPublisherLoginUrl,
  completeAngelFormLogin,
  completeAngelRedirectLogin,
} from './login';
import { AngelMarketFeed } from './marketFeed';
import { createAngelOrderUpdates$, orderStatusEvents$, orderStatusSocketUrl } from './orderUpdates';
import { decodeAngelTokens } from './session';

export { ANGEL_CAPABILITIES, AngelBroker } from './broker';
export { ANGEL_LOGIN_FIELDS } from './login';
export { nextAngelExpiry } from './session';

/** Angel One's production hosts (the order-status socket's own host is derived from the WS root: orderUpdates.ts). */
export const ANGELONE_DEFAULT_ENDPOINTS = {
  apiRoot: 'https://apiconnect.angelone.in',
  loginUrl: 'https://smartapi.angelone.in/publisher-login',
  wsRoot: 'wss://smartapisocket.angelone.in',
  masterRoot: 'https://margincalculator.angelbroking.com',
} as const;

/** `X-MACAddress`: this machine's first hardware address (Angel's clients send the host's), else a local one. */
function machineMac(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const nic of list ?? []) {
      if (!nic.internal && nic.mac && nic.mac !== '00:00:00:00:00:00') return nic.mac;
    }
  }
  return '02:00:00:00:00:01';
}

export interface AngelOneModuleOptions {
  /** order-book polling interval while the order-status socket is down; default 3 s */
  readonly pollIntervalMs?: number;
  /** waits before order-status socket reconnects */
  readonly reconnectBackoffMs?: readonly number[];
  readonly scheduler?: SchedulerLike;
}

export function angeloneModule(
  context: BrokerModuleContext,
  options: AngelOneModuleOptions = {},
): BrokerModule {
  const { apiRoot, loginUrl, wsRoot } = context.endpoints;
  const masterUrl = `${context.endpoints.masterRoot ?? apiRoot}${ANGEL_MASTER_PATH}`;
  const macAddress = machineMac();
  const net = {
    apiRoot,
    macAddress,
    ...(context.egressIp === undefined ? {} : { egressIp: context.egressIp }),
  };
  const fetchInstruments = () => fetchAngelInstruments(masterUrl);
  // One download per IST day, shared by every account's adapter of this module.
  const instruments = new InstrumentBook(fetchInstruments, context.now, 'token');
  const orderSocketUrl = orderStatusSocketUrl(wsRoot);
  const scheduler = options.scheduler ?? asyncScheduler;

  return {
    type: 'angelone',
    label: 'Angel One',
    formLogin: {
      fields: ANGEL_LOGIN_FIELDS,
      complete: (input) => completeAngelFormLogin({ ...net, now: context.now() }, input),
    },
    redirectLogin: {
      url: ({ credentials, state }) => angelPublisherLoginUrl(loginUrl, credentials.apiKey, state),
      stateOf: (query) => query.state,
      complete: (input) => completeAngelRedirectLogin({ ...net, now: context.now() }, input),
    },
    setup: {
      portal: { name: 'SmartAPI developer portal', url: 'https://smartapi.angelone.in/' },
      credentialLabels: { apiKey: 'API key', apiSecret: 'secret key' },
      sessionEnds: '00:00 IST (midnight)',
      notes: [
        'In the SmartAPI portal create a "Trading APIs" app; enter the redirect URL shown here and this server\'s static IP as the app\'s primary IP.',
        'Enable TOTP for your Angel One account (SmartAPI portal → Enable TOTP) in an authenticator app: each day you log in here with your client code, MPIN and the current 6-digit code, which go straight to Angel One and are never stored.',
        'Angel One accepts no market or IOC orders from algos (since 1 April 2026): OptionPilot sends protected limit orders, and stops as stop-limit orders.',
      ],
    },
    createBroker: ({ credentials, session, onSessionEnded }) => {
      const tokens = decodeAngelTokens(session.accessToken);
      const http = new AngelHttp({
        ...net,
        apiKey: credentials.apiKey,
        jwt: tokens.jwt,
        ...(onSessionEnded === undefined ? {} : { onAuthExpired: onSessionEnded }),
      });
      return new AngelBroker({
        http,
        instruments,
        algoTag: context.algoTag,
        now: context.now,
        orderUpdates: (orderBook) =>
          createAngelOrderUpdates$({
            events$: orderStatusEvents$({
              url: orderSocketUrl,
              headers: {
                Authorization: `Bearer ${tokens.jwt}`,
                'x-api-key': credentials.apiKey,
                'x-client-code': tokens.clientCode,
                'x-feed-token': tokens.feedToken,
              },
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
    async profile({ credentials, session }) {
      const { jwt } = decodeAngelTokens(session.accessToken);
      const profile = await angelProfile(net, credentials.apiKey, jwt);
      return { accountId: profile.clientCode, name: profile.name };
    },
    fetchInstruments,
    createFeed: ({ credentials, session, instrumentOf }) =>
      new AngelMarketFeed({
        wsRoot,
        apiKey: credentials.apiKey,
        tokens: decodeAngelTokens(session.accessToken),
        instrumentOf,
        now: context.now,
      }),
  };
}

/** Angel One's production hosts, ANGELONE_* variables and FEED=angelone. */
export const angeloneBroker: BrokerDefinition = {
  type: 'angelone',
  feed: 'angelone',
  env: { prefix: 'ANGELONE', defaults: ANGELONE_DEFAULT_ENDPOINTS },
  create: (context) => angeloneModule(context),
};
