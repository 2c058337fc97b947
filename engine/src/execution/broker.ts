import type { Observable } from 'rxjs';
import type { BrokerOrderStatus, OrderAmendment, OrderRequest } from './orderTypes';

/**
 * The port every broker implements: the paper broker here, and the live adapters (zerodha, upstox, fyers,
 * angelone, dhan, aliceblue, groww). One instance serves one account (one user's API key and session), so its
 * rate limits are that account's.
 */

/** Per-account order-rate limits a broker enforces (orders, modifies and cancels count alike). */
export interface BrokerRateLimits {
  readonly perSecond: number;
  readonly perMinute?: number;
  readonly perDay?: number;
}

/** What a broker accepts; the router adapts orders to it (protection, splitting, tag length). */
export interface BrokerCapabilities {
  /** canonical broker type, e.g. `zerodha`, `paper` */
  readonly name: string;
  readonly supportsMarketOrders: boolean;
  readonly supportsSlm: boolean;
  /** raw MARKET / SL-M orders from APIs are refused or rewritten (DOMAIN.md §1, from 1 Apr 2026) */
  readonly requiresMarketProtection: boolean;
  readonly rateLimits: BrokerRateLimits;
  /** the largest quantity one order may carry (exchange freeze quantity); larger orders are split */
  readonly freezeQty?: number;
  /**
   * longest tag the broker stores: the adapter fits the algo tag and the client order id (16 characters in its
   * alphanumeric form) into it, cutting the algo tag, never the id
   */
  readonly tagMaxLength: number;
}

/** A broker's view of one order: its update stream and status queries both produce these. */
export interface BrokerOrderSnapshot {
  /** the engine's id, echoed back from the tag; absent when the broker lost it (match by brokerOrderId) */
  readonly clientOrderId?: string;
  readonly brokerOrderId: string;
  readonly status: BrokerOrderStatus;
  /** cumulative */
  readonly filledQty: number;
  readonly avgPrice: number;
  readonly reason?: string;
  /** epoch ms of the broker's update, or of the query when the broker gives none */
  readonly time: number;
}

/** A net position as the broker reports it. */
export interface BrokerPosition {
  readonly symbol: string;
  /** signed: positive long, negative short, 0 flat */
  readonly quantity: number;
  readonly avgPrice: number;
  readonly realisedPnl: number;
}

/** Identifies an order at the broker, by whichever id is known. */
export type OrderRef = { readonly clientOrderId: string } | { readonly brokerOrderId: string };

/** A modify as sent to a broker. */
export type BrokerAmendment = OrderAmendment;

/** One account's broker connection. */
export interface Broker {
  readonly capabilities: BrokerCapabilities;
  /** places the order; throws `BrokerError` */
  placeOrder(request: OrderRequest): Promise<{ readonly brokerOrderId: string }>;
  modifyOrder(brokerOrderId: string, amendment: BrokerAmendment): Promise<void>;
  cancelOrder(brokerOrderId: string): Promise<void>;
  /** the broker's current view of an order, or undefined when the broker has no such order */
  getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined>;
  getPositions(): Promise<readonly BrokerPosition[]>;
  /** order updates pushed by the broker (postbacks, order websocket); hot, never completes while connected */
  readonly orderUpdates$: Observable<BrokerOrderSnapshot>;
  /**
   * An order is expected soon (a signal armed): the adapter readies what an order needs, such as an open
   * connection to the order host, so the order leaves without a connection handshake. Optional; best effort.
   */
  prepare?(): Promise<void>;
}

/** How a broker call failed. */
export type BrokerErrorKind =
  'rejected' | 'auth_expired' | 'ip_not_allowed' | 'rate_limited' | 'timeout' | 'network';

/**
 * Whether an order may exist at the broker after a failed `placeOrder`. `unknown` outcomes are resolved by
 * asking the broker (`getOrder`), never by sending the order again; `not_placed` ones are safe to retry.
 */
export const PLACE_OUTCOME_BY_ERROR: Readonly<Record<BrokerErrorKind, 'not_placed' | 'unknown'>> = {
  rejected: 'not_placed',
  auth_expired: 'not_placed',
  ip_not_allowed: 'not_placed',
  rate_limited: 'not_placed',
  // The request may have reached the broker before the connection failed.
  timeout: 'unknown',
  network: 'unknown',
};

/** A typed broker failure. Adapters build it from the broker's error code, never from its message text. */
export class BrokerError extends Error {
  constructor(
    readonly kind: BrokerErrorKind,
    /** the broker's own code (e.g. Kite `error_type`, an HTTP status, a Node `ECONNRESET`) */
    readonly code: string,
    message: string,
    readonly broker?: string,
  ) {
    super(message);
    this.name = 'BrokerError';
  }
}

/** A broker's code → kind table; adapters pass their own table first, the generic ones are fallbacks. */
export type BrokerCodeTable = Readonly<Record<string, BrokerErrorKind>>;

/** HTTP statuses whose meaning is the same at every broker. 403 is left out: brokers use it for both an expired
 * session and a refused IP, so only their own error code can tell which. */
export const HTTP_STATUS_KINDS: BrokerCodeTable = {
  '400': 'rejected',
  '401': 'auth_expired',
  '408': 'timeout',
  '422': 'rejected',
  '429': 'rate_limited',
  '502': 'network',
  '503': 'network',
  '504': 'timeout',
};

/** Node / undici system error codes of failed requests. */
export const NETWORK_CODE_KINDS: BrokerCodeTable = {
  ECONNRESET: 'network',
  ECONNREFUSED: 'network',
  ENOTFOUND: 'network',
  EAI_AGAIN: 'network',
  EPIPE: 'network',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_SOCKET: 'network',
  ABORT_ERR: 'timeout',
};

/** What an adapter knows about a failed call. */
export interface BrokerFailure {
  readonly broker: string;
  /** the broker's own error code from the response body (e.g. Kite `error_type`, Upstox `errorCode`) */
  readonly code?: string;
  readonly httpStatus?: number;
  /** a Node/undici system error code when no response arrived */
  readonly systemCode?: string;
  readonly message: string;
}

/**
 * Classifies a failed broker call by its codes: the broker's table first, then HTTP status, then system codes.
 * Anything unrecognised is `rejected` (refused, not placed) when the broker answered with a client error, and
 * `network` (outcome unknown, resolved by a status query) after a 5xx or with no answer at all.
 */
export function classifyBrokerFailure(
  failure: BrokerFailure,
  brokerCodes: BrokerCodeTable = {},
): BrokerError {
  const candidates: [string | undefined, BrokerCodeTable][] = [
    [failure.code, brokerCodes],
    [failure.httpStatus === undefined ? undefined : String(failure.httpStatus), HTTP_STATUS_KINDS],
    [failure.systemCode, NETWORK_CODE_KINDS],
  ];
  for (const [code, table] of candidates) {
    if (code !== undefined && Object.hasOwn(table, code)) {
      return new BrokerError(table[code] as BrokerErrorKind, code, failure.message, failure.broker);
    }
  }
  // A 5xx means the broker failed mid-request: whether the order was placed is unknown.
  const serverFault = failure.httpStatus !== undefined && failure.httpStatus >= 500;
  const answered = !serverFault && (failure.httpStatus !== undefined || failure.code !== undefined);
  const code = failure.code ?? failure.systemCode ?? String(failure.httpStatus ?? 'unknown');
  return new BrokerError(answered ? 'rejected' : 'network', code, failure.message, failure.broker);
}

/** True for a `BrokerError`. */
export function isBrokerError(error: unknown): error is BrokerError {
  return error instanceof BrokerError;
}
