import type { Order, OrderSide, OrderType } from './orderTypes';

/**
 * What an order is for, as typed fields: a signal's entry for one account, or the n-th exit or stop of a position.
 * Nothing reads meaning out of an intent key: code that needs to know asks these fields.
 */
export type OrderAim =
  | { readonly purpose: 'entry'; readonly signalId: string }
  | { readonly purpose: 'exit' | 'stop'; readonly positionId: string; readonly sequence: number };

/** One order to place for one account (entries, exits and stops alike); the router splits it into freeze legs. */
export type OrderIntent = OrderAim & {
  readonly accountId: string;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly type: OrderType;
  readonly price?: number;
  readonly triggerPrice?: number;
};

/**
 * The idempotency key of one leg of an intent: the store refuses a second order with the same key, ever. Built from
 * the typed fields, here and nowhere else: `<signalId>:<accountId>:entry#<leg>`, `<positionId>:exit:<n>#<leg>`,
 * `<positionId>:stop:<n>#<leg>` (the formats of rows written before the fields existed, so a key made now collides
 * with an order made then). Nothing parses it.
 */
export function intentKeyOf(intent: OrderAim & { readonly accountId: string }, leg: number): string {
  if (intent.purpose === 'entry') return `${intent.signalId}:${intent.accountId}:entry#${leg}`;
  return `${intent.positionId}:${intent.purpose}:${intent.sequence}#${leg}`;
}

/** Whether an order is one of the intent's legs. */
export function isOrderOf(order: Order, intent: OrderIntent): boolean {
  if (order.accountId !== intent.accountId || order.purpose !== intent.purpose) return false;
  if (intent.purpose === 'entry') return order.signalId === intent.signalId;
  return order.positionId === intent.positionId && order.sequence === intent.sequence;
}
