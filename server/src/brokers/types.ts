// The contract every live broker integration implements, so the connection lifecycle (connect → broker login →
// callback → session), the trading runtime's broker factory and the market feed treat all brokers alike. One
// folder per broker (`server/src/brokers/<type>/`) exports a `BrokerModule`; `registry.ts` lists the ones that
// exist, and only those are offered to traders.
import type { Broker, BrokerErrorKind, FeedSource } from '@optionpilot/engine';

/** Canonical broker types (DOMAIN.md §3); the spec's misspellings `grow` / `upstokes` are mapped on input. */
export type BrokerType = 'zerodha' | 'upstox' | 'fyers' | 'angelone' | 'dhan' | 'aliceblue' | 'groww';

/** A trader's own API app at the broker, decrypted only in memory. */
export interface BrokerCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

/** A logged-in broker session, stored encrypted (the token) with its expiry. */
export interface BrokerSession {
  readonly accessToken: string;
  /** epoch ms; Kite 06:00 IST and Upstox 03:30 IST of the next day */
  readonly expiresAt: number;
  /** the broker's id of the account (Kite `user_id`, Upstox `user_id`) */
  readonly accountId: string;
  /** the name the broker holds for the account, shown on the Broker Connection card */
  readonly accountName: string;
}

/** Where a broker's services are; tests point them at the fakes in test/fakes/ (`<SERVICE>_API_ROOT`, …). */
export interface BrokerEndpoints {
  /** REST root, e.g. `https://api.kite.trade` */
  readonly apiRoot: string;
  /** the login page the browser is sent to */
  readonly loginUrl: string;
  /** market data / order update WebSocket root */
  readonly wsRoot: string;
  /** order placement root when the broker has a separate one (Upstox `api-hft.upstox.com`); default apiRoot */
  readonly ordersRoot?: string;
}

/** What a broker module gets from the server. */
export interface BrokerModuleContext {
  readonly endpoints: BrokerEndpoints;
  /** SEBI algo tag sent with every order (ALGO_TAG) */
  readonly algoTag: string;
  /** wall clock, epoch ms */
  readonly now: () => number;
}

/** The broker's answer to a completed login redirect: the query of `/broker/<type>/callback`. */
export type CallbackQuery = Readonly<Record<string, string | undefined>>;

/** One instrument of the broker's master, reduced to what mapping a canonical NIFTY option needs. */
export interface BrokerInstrument {
  /** the broker's handle for orders and the feed (Kite instrument_token / tradingsymbol, Upstox instrument_key) */
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

/** The login, session and order half of a broker integration. */
export interface BrokerModule {
  readonly type: BrokerType;
  /** shown in the Broker Connection select and on the landing page */
  readonly label: string;
  /** the URL the trader's browser is sent to; `state` comes back on the callback */
  loginUrl(input: { credentials: BrokerCredentials; state: string; redirectUri: string }): string;
  /** the `state` the broker echoed back in the callback query */
  stateOf(query: CallbackQuery): string | undefined;
  /** exchanges the callback's code/request token for a session; throws `BrokerError` */
  completeLogin(input: {
    credentials: BrokerCredentials;
    query: CallbackQuery;
    redirectUri: string;
  }): Promise<BrokerSession>;
  /**
   * the order adapter (the engine's `Broker` port) for one account's session; `onSessionEnded` is called when the
   * broker refuses the session's token (it ended early: logged out, revoked, or the daily logout came)
   */
  createBroker(input: {
    credentials: BrokerCredentials;
    session: BrokerSession;
    onSessionEnded?: () => void;
  }): Broker;
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
}

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
