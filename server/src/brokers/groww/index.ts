// Groww (Trade API) as a broker folder: its definition (GROWW_* variables, FEED=groww) and module — the daily form
// login (TOTP, or the approval flow with the saved secret), the order adapter, the instrument CSV, and Groww's
// socket (NATS over WebSocket): order updates pushed (the order list polled while it is down) and the market feed.
// One module instance owns the instrument master its adapters share. See README.md for the wire facts, the choices made and what is still to verify.
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { BrokerDefinition, BrokerModule, BrokerModuleContext } from '../types';
import { InstrumentBook } from '../instruments/book';
import { GrowwBroker } from './broker';
import { GrowwHttp } from './http';
import { fetchGrowwInstruments, GROWW_MASTER_PATH } from './instruments';
import { completeGrowwLogin, GROWW_LOGIN_FIELDS, growwProfile } from './login';
import { createGrowwMarketFeed } from './marketFeed';
import { createGrowwOrderUpdates$, growwOrderEvents$ } from './orderUpdates';
import { createSocketCredentials } from './socket';

export { GROWW_CAPABILITIES, GrowwBroker, growwReference } from './broker';
export { GROWW_LOGIN_FIELDS, growwChecksum, nextGrowwExpiry } from './login';

/** Groww's production hosts; `wsRoot` is the socket Groww's SDK streams from. */
export const GROWW_DEFAULT_ENDPOINTS = {
  apiRoot: 'https://api.groww.in',
  loginUrl: 'https://groww.in/trade-api/api-keys',
  wsRoot: 'wss://socket-api.groww.in',
  masterRoot: 'https://growwapi-assets.groww.in',
} as const;

export interface GrowwModuleOptions {
  /** order-list polling interval while the socket is down; default 2 s (orderUpdates.ts) */
  readonly pollIntervalMs?: number;
  /** waits before socket reconnects (orders and feed); the last repeats */
  readonly backoffMs?: readonly number[];
  readonly scheduler?: SchedulerLike;
}

const ORDER_SOCKET_BACKOFF_MS = [500, 1_000, 2_000, 5_000, 10_000] as const;

export function growwModule(context: BrokerModuleContext, options: GrowwModuleOptions = {}): BrokerModule {
  const { apiRoot, wsRoot } = context.endpoints;
  const masterUrl = `${context.endpoints.masterRoot ?? apiRoot}${GROWW_MASTER_PATH}`;
  const fetchInstruments = () => fetchGrowwInstruments(masterUrl);
  // One download per IST day, shared by every account's adapter; positions name instruments by trading symbol.
  const instruments = new InstrumentBook(fetchInstruments, context.now, 'tradingSymbol');
  const scheduler = options.scheduler ?? asyncScheduler;

  return {
    type: 'groww',
    label: 'Groww',
    formLogin: {
      fields: GROWW_LOGIN_FIELDS,
      complete: (input) => completeGrowwLogin({ apiRoot, now: context.now() }, input),
    },
    setup: {
      portal: { name: 'Groww Cloud API keys page', url: 'https://groww.in/trade-api/api-keys' },
      credentialLabels: { apiKey: 'API key', apiSecret: 'API secret' },
      sessionEnds: '06:00 IST',
      notes: [
        'Subscribe to Trading APIs in Groww, then on the API keys page generate an API key and secret and add this server’s static IP to the key.',
        'Each trading day either approve the key on Groww’s API keys page and then connect here with the TOTP left empty, or (for a TOTP key) type the current 6-digit code: it goes straight to Groww and is never stored.',
        'Groww accepts no market orders from algos: OptionPilot sends protected limit orders, and stops as stop-limit orders.',
      ],
    },
    createBroker: ({ session, onSessionEnded }) => {
      const http = new GrowwHttp({
        apiRoot,
        bearer: session.accessToken,
        ...(onSessionEnded === undefined ? {} : { onAuthExpired: onSessionEnded }),
      });
      return new GrowwBroker({
        http,
        instruments,
        algoTag: context.algoTag,
        now: context.now,
        orderUpdates: (reads) =>
          createGrowwOrderUpdates$({
            reads,
            socket: (rows) =>
              growwOrderEvents$({
                url: wsRoot,
                credentials: () => createSocketCredentials(http),
                complete: (pushed) => rows.complete(pushed),
                backoffMs: options.backoffMs ?? ORDER_SOCKET_BACKOFF_MS,
                scheduler,
              }),
            now: context.now,
            scheduler,
            ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
          }),
      });
    },
    async profile({ session }) {
      const { ucc } = await growwProfile(apiRoot, session.accessToken);
      return { accountId: ucc, name: `Groww ${ucc}` };
    },
    fetchInstruments,
    createFeed: ({ session, instrumentOf }) =>
      createGrowwMarketFeed({
        wsRoot,
        http: new GrowwHttp({ apiRoot, bearer: session.accessToken, timeoutMs: 5_000 }),
        instrumentOf,
        now: context.now,
        ...(options.backoffMs === undefined ? {} : { backoffMs: options.backoffMs }),
      }),
  };
}

/** Groww's production hosts, GROWW_* variables and FEED=groww. */
export const growwBroker: BrokerDefinition = {
  type: 'groww',
  feed: 'groww',
  env: { prefix: 'GROWW', defaults: GROWW_DEFAULT_ENDPOINTS },
  create: (context) => growwModule(context),
};
