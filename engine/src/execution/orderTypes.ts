/**
 * The engine's order model. Broker adapters translate their wire statuses into these types once, at the edge;
 * the router, the store and the risk manager speak only these.
 */

export type OrderSide = 'BUY' | 'SELL';

/** `SL` is a stop-limit (trigger + limit price); `SL-M` a stop-market (trigger only). */
export type OrderType = 'MARKET' | 'LIMIT' | 'SL' | 'SL-M';

/** MIS = intraday (broker squares off), NRML = carry forward. The product trades intraday. */
export type ProductType = 'MIS' | 'NRML';

/**
 * Lifecycle of an order (STYLE.md §13). UNKNOWN means a request timed out and its outcome is not known yet; it is
 * resolved by asking the broker, never by resending.
 */
export type OrderState =
  | 'INITIALIZED'
  | 'SUBMITTED'
  | 'ACCEPTED'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'REJECTED'
  | 'CANCEL_PENDING'
  | 'CANCELLED'
  | 'MODIFY_PENDING'
  | 'EXPIRED'
  | 'UNKNOWN';

/** Every order state, in lifecycle order. */
export const ORDER_STATES: readonly OrderState[] = [
  'INITIALIZED',
  'SUBMITTED',
  'ACCEPTED',
  'PARTIALLY_FILLED',
  'FILLED',
  'REJECTED',
  'CANCEL_PENDING',
  'CANCELLED',
  'MODIFY_PENDING',
  'EXPIRED',
  'UNKNOWN',
];

/** The states a broker can report for an order it knows (what a status query or an update resolves to). */
export type BrokerOrderStatus =
  'ACCEPTED' | 'PARTIALLY_FILLED' | 'FILLED' | 'REJECTED' | 'CANCELLED' | 'EXPIRED';

/** Changes requested by a modify; applied to the order only once the broker confirms them. */
export interface OrderAmendment {
  readonly quantity?: number;
  readonly price?: number;
  readonly triggerPrice?: number;
}

/**
 * What an order is for: opening a position on a signal (`entry`), selling a position (`exit`), or a live position's
 * stop resting at the broker (`stop`, a SELL too).
 */
export type OrderPurpose = 'entry' | 'exit' | 'stop';

/** What is sent to a broker: everything an adapter needs to build its request. */
export interface OrderRequest {
  /** the engine's id (see `createClientOrderIdFactory`); adapters send it as the broker's order tag */
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly quantity: number;
  /** limit price for LIMIT and SL */
  readonly price?: number;
  /** trigger price for SL and SL-M */
  readonly triggerPrice?: number;
  readonly product: ProductType;
  /** algo id / tag required on every algo order (DOMAIN.md §2) */
  readonly tag: string;
}

/** One order as the engine tracks and persists it. Plain data: serialisable to JSON as is. */
export interface Order {
  readonly clientOrderId: string;
  /** the broker's id, known once the broker acknowledged the order */
  readonly brokerOrderId?: string;
  readonly accountId: string;
  /** what the order is for (see `OrderPurpose`) */
  readonly purpose: OrderPurpose;
  /** the signal an entry is for */
  readonly signalId?: string;
  /** the position (trade id) an exit or a stop is for; an entry's once its trade is opened, where the store links it */
  readonly positionId?: string;
  /** the n-th exit or stop of its position (1, 2, …); 0 for an entry */
  readonly sequence: number;
  /** the freeze-quantity leg (0, 1, …) of its intent */
  readonly leg: number;
  /**
   * Idempotency key: one broker order at most per key, ever. Built from the fields above by `intentKeyOf` (one
   * entry per signal, account and leg; one order per position, purpose, sequence and leg); never read for meaning.
   */
  readonly intentKey: string;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly quantity: number;
  readonly price?: number;
  readonly triggerPrice?: number;
  readonly product: ProductType;
  readonly tag: string;
  readonly state: OrderState;
  readonly filledQty: number;
  /** volume-weighted average fill price; 0 while nothing is filled */
  readonly avgPrice: number;
  /** ids of fills already applied, so a fill delivered twice (postback and socket) counts once */
  readonly fillIds: readonly string[];
  /** the amendment waiting for the broker's confirmation while MODIFY_PENDING */
  readonly pendingAmendment?: OrderAmendment;
  /** the order type the caller asked for when market protection rewrote it */
  readonly protectedFrom?: OrderType;
  /** broker's or engine's reason for a rejection, cancellation or unresolved outcome */
  readonly reason?: string;
  /** true once a fill arrived after the order was reported CANCELLED or EXPIRED (see the state machine docs) */
  readonly lateFill?: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}
