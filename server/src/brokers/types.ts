// The contract every live broker integration implements, so the connection lifecycle (save credentials → log in →
// session), the trading runtime's broker factory, the market feed, postbacks and the admin's connection test treat
// all brokers alike. A broker is one folder (`server/src/brokers/<type>/`) exporting one `BrokerDefinition`: its
// environment block, its market feed's FEED name and the factory of its `BrokerModule`. `registry.ts` lists the
// definitions; nothing else in the server names a broker.
import type { ZodType } from 'zod';
import type { Broker, BrokerErrorKind, FeedSource } from '@optionpilot/engine';
import type { BrokerLoginFieldDto, BrokerType } from '../contract';

export type { BrokerType } from '../contract';

/** A trader's own API app at the broker, decrypted only in memory. */
export interface BrokerCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

/** A logged-in broker session, stored encrypted (the token) with its expiry. */
export interface BrokerSession {
  /**
   * The session's secret, opaque to the server: the module decides its form (a bearer token, or a small JSON of
   * several tokens such as Angel One's JWT and feed token). Sealed at rest, never logged.
   */
  readonly accessToken: string;
  /** epoch ms; the broker's own daily end (Kite 06:00 IST, Upstox 03:30 IST, Angel One midnight IST, …) */
  readonly expiresAt: number;
  /** the broker's id of the account (Kite `user_id`, Fyers `fy_id`, Angel One client code, …) */
  readonly accountId: string;
  /** the name the broker holds for the account, shown on the Broker Connection card */
  readonly accountName: string;
}

/**
 * Where a broker's services are. Roots are scheme + host (+ port) only; the module appends the broker's documented
 * paths unchanged, so a fake in test/fakes/ stands in by changing the host alone (`<BROKER>_API_ROOT`, …).
 */
export interface BrokerEndpoints {
  /** REST root, e.g. `https://api.kite.trade` */
  readonly apiRoot: string;
  /** the full documented login URL the browser is sent to */
  readonly loginUrl: string;
  /** market data / order update WebSocket root */
  readonly wsRoot: string;
  /** order placement root when the broker has a separate one (Upstox `api-hft.upstox.com`) */
  readonly ordersRoot?: string;
  /** where the instrument master file is, when on another host than the API (`<BROKER>_MASTER_ROOT`) */
  readonly masterRoot?: string;
}

/** What a broker module gets from the server. */
export interface BrokerModuleContext {
  readonly endpoints: BrokerEndpoints;
  /** SEBI algo tag (ALGO_TAG): each module puts it on its orders as the broker's rules allow (README, per broker) */
  readonly algoTag: string;
  /** the server's static egress IP (EGRESS_IP), for brokers whose API wants it in headers */
  readonly egressIp?: string;
  /** wall clock, epoch ms */
  readonly now: () => number;
}

/** The broker's answer to a completed login redirect: the query of `/broker/<type>/callback`. */
export type CallbackQuery = Readonly<Record<string, string | undefined>>;

/** One instrument of the broker's master, reduced to what mapping a canonical NIFTY option needs. */
export interface BrokerInstrument {
  /** the broker's handle for orders and the feed (Kite instrument_token, Upstox instrument_key, Angel symboltoken) */
  readonly token: string;
  /** the broker's trading symbol */
  readonly tradingSymbol: string;
  /** `YYYY-MM-DD` (IST) */
  readonly expiry: string;
  readonly strike: number;
  readonly optionType: 'CE' | 'PE';
  readonly lotSize: number;
  readonly tickSize: number;
}

/** A login through the broker's own page, back to `/broker/<type>/callback` (OAuth-style). */
export interface RedirectLogin {
  /** the URL the trader's browser is sent to; `state` comes back on the callback */
  url(input: { credentials: BrokerCredentials; state: string; redirectUri: string }): string;
  /**
   * When present, Connect takes the URL from here instead of `url`: the broker must be asked first (Dhan's consent
   * is generated server-side). Throws `BrokerError`.
   */
  start?(input: { credentials: BrokerCredentials; state: string; redirectUri: string }): Promise<string>;
  /** the `state` the broker echoed back in the callback query */
  stateOf(query: CallbackQuery): string | undefined;
  /**
   * The broker echoes no state (Dhan appends only its `tokenId`): the callback claims the newest pending state of
   * the same browser session and broker instead, and the module pins the account it accepts.
   */
  readonly stateInSession?: boolean;
  /** exchanges the callback's code/token for a session; throws `BrokerError` */
  complete(input: {
    credentials: BrokerCredentials;
    query: CallbackQuery;
    redirectUri: string;
  }): Promise<BrokerSession>;
}

/**
 * A login whose daily secrets the trader types into a dialog (Angel One's client code, MPIN and TOTP): the values
 * go straight to the broker and are never stored or logged.
 */
export interface FormLogin {
  /** what the dialog asks for; the server validates each value against its pattern before calling `complete` */
  readonly fields: readonly BrokerLoginFieldDto[];
  /** logs in with the typed values; throws `BrokerError` */
  complete(input: {
    credentials: BrokerCredentials;
    values: Readonly<Record<string, string>>;
  }): Promise<BrokerSession>;
}

/** What the trader must set up at the broker before connecting, shown on the Broker Connection card. */
export interface BrokerSetup {
  /** where the API app is created, e.g. Kite Connect's developer console */
  readonly portal: { readonly name: string; readonly url: string };
  /** what the broker calls the key and the secret of the app */
  readonly credentialLabels: { readonly apiKey: string; readonly apiSecret: string };
  /** when the broker ends sessions each day, in words ("06:00 IST") */
  readonly sessionEnds: string;
  /** anything else to know, one sentence each */
  readonly notes: readonly string[];
}

/** Order updates the broker POSTs to `/api/broker/<type>/postback` (Kite's postbacks). */
export interface BrokerPostback {
  /** the body's shape; a body that does not parse is a 400 naming the field */
  readonly schema: ZodType<unknown>;
  /** delivers a parsed body to the account's live adapter after checking its signature */
  receive(body: unknown): 'accepted' | 'bad_signature' | 'unknown_account';
}

/** The account the broker holds, as its profile call answers (admin connection test). */
export interface BrokerProfile {
  readonly accountId: string;
  readonly name: string;
}

/**
 * An adapter's own safety net at the broker for a trader's daily loss lock (Dhan's P&L exit and kill switch): called
 * once, best effort, after the lock's losing close is stored; OptionPilot's own exits never wait for it.
 */
export interface DailyLossSafetyNet {
  onDailyLossLock(): Promise<unknown>;
}

export function hasDailyLossSafetyNet(broker: object): broker is DailyLossSafetyNet {
  return typeof (broker as Partial<DailyLossSafetyNet>).onDailyLossLock === 'function';
}

/** One broker integration, built once per server from its definition. */
export interface BrokerModule {
  readonly type: BrokerType;
  /** shown in the Broker Connection select and on the landing page */
  readonly label: string;
  /** a redirect login; for brokers with a form login, offered as an alternative where the broker supports it */
  readonly redirectLogin?: RedirectLogin;
  /** a form login (the primary kind when present) */
  readonly formLogin?: FormLogin;
  readonly setup: BrokerSetup;
  /**
   * the order adapter (the engine's `Broker` port) for one account's session; `onSessionEnded` is called when the
   * broker refuses the session's token (it ended early: logged out, revoked, or the daily logout came)
   */
  createBroker(input: {
    credentials: BrokerCredentials;
    session: BrokerSession;
    onSessionEnded?: () => void;
  }): Broker;
  /** the account's profile over its session (admin Test connection); throws `BrokerError` */
  profile(input: { credentials: BrokerCredentials; session: BrokerSession }): Promise<BrokerProfile>;
  /** downloads and parses the NIFTY options of the broker's instrument master */
  fetchInstruments(): Promise<readonly BrokerInstrument[]>;
  /**
   * The broker's market feed as the engine's `FeedSource` (kind = the broker type, `simulated` false): NIFTY 50
   * index ticks and quotes of subscribed canonical option symbols, which `instrumentOf` maps to the broker's
   * tokens. Reconnects with backoff; health goes `stale` after 5 s without a tick.
   */
  createFeed?(input: {
    credentials: BrokerCredentials;
    session: BrokerSession;
    instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  }): FeedSource;
  /** order updates pushed to us over HTTP, when the broker has them */
  readonly postback?: BrokerPostback;
}

/** A broker's environment variables: `<prefix>_API_ROOT`, `_LOGIN_URL`, `_WS_ROOT` (+ `_ORDERS_ROOT`, `_MASTER_ROOT`). */
export interface BrokerEnv {
  /** e.g. `KITE` for Zerodha, `FYERS` */
  readonly prefix: string;
  /** the broker's production endpoints; a root variable exists for each root given here */
  readonly defaults: BrokerEndpoints;
}

/** A broker folder's one export: what the configuration, the feed choice and the registry need of it. */
export interface BrokerDefinition {
  readonly type: BrokerType;
  readonly env: BrokerEnv;
  /** `FEED=<feed>` streams this broker's market feed over FEED_ACCOUNT's session */
  readonly feed?: string;
  create(context: BrokerModuleContext): BrokerModule;
}

/** How a form login's values are sent: `POST /api/<submitPath>` with `{ fields: { <name>: value } }`. */
export const FORM_LOGIN_SUBMIT_PATH = '/api/user/broker/login';

/** Fixed, clear texts for broker failures shown to traders (never the broker's raw text). */
export const BROKER_ERROR_MESSAGES: Readonly<Record<BrokerErrorKind, string>> = {
  rejected: 'The broker refused the request. Check your API key and secret, and that the app is enabled.',
  auth_expired: 'Your broker session has expired. Reconnect to trade today.',
  ip_not_allowed:
    "The broker refused our server's IP address. Under SEBI's rules API orders are accepted only from an IP " +
    'address you whitelist in your broker app: add the static IP shown here and try again.',
  rate_limited: 'The broker is limiting requests right now. Try again in a minute.',
  timeout: 'The broker did not answer in time. Try again in a minute.',
  network: 'The broker could not be reached. Try again in a minute.',
};

/** The fixed text for a broker failure; "IP not allowed" names the server's egress IP to whitelist. */
export function brokerErrorMessage(kind: BrokerErrorKind, egressIp: string | undefined): string {
  const base = BROKER_ERROR_MESSAGES[kind];
  if (kind !== 'ip_not_allowed') return base;
  return egressIp
    ? `${base} This server's IP address: ${egressIp}.`
    : `${base} Ask the operator of this OptionPilot server for its static IP address (EGRESS_IP is not set).`;
}
