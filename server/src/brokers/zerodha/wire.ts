// Kite Connect v3 wire shapes (only the fields the adapter reads; Kite sends more) and their translation into
// the engine's order types, done once here at the edge.
import { z } from 'zod';
import { clientOrderIdOfTag } from '../orderTag';
import { istDateTime, type BrokerOrderSnapshot, type BrokerOrderStatus } from '@optionpilot/engine';

export const kiteOrderIdSchema = z.object({ order_id: z.string() });

export const kiteOrderSchema = z.object({
  order_id: z.string(),
  status: z.string(),
  status_message: z.string().nullish(),
  order_timestamp: z.string().nullish(),
  exchange_update_timestamp: z.string().nullish(),
  tradingsymbol: z.string(),
  exchange: z.string(),
  transaction_type: z.string(),
  order_type: z.string(),
  quantity: z.number(),
  filled_quantity: z.number(),
  average_price: z.number(),
  price: z.number().nullish(),
  trigger_price: z.number().nullish(),
  tag: z.string().nullish(),
});
export type KiteOrder = z.infer<typeof kiteOrderSchema>;

export const kiteOrdersSchema = z.array(kiteOrderSchema);

export const kitePositionsSchema = z.object({
  net: z.array(
    z.object({
      tradingsymbol: z.string(),
      exchange: z.string(),
      quantity: z.number(),
      average_price: z.number(),
      realised: z.number(),
    }),
  ),
});

export const kiteSessionSchema = z.object({
  access_token: z.string().min(1),
  user_id: z.string().min(1),
  user_name: z.string(),
});

/** A postback as Kite POSTs it: an order object plus the user and the checksum. */
export const kitePostbackSchema = kiteOrderSchema.extend({
  user_id: z.string().min(1),
  checksum: z.string().min(1),
  order_timestamp: z.string(),
});
export type KitePostback = z.infer<typeof kitePostbackSchema>;

/**
 * Kite's order statuses → the engine's. Everything not final (PUT ORDER REQ RECEIVED, VALIDATION PENDING,
 * OPEN PENDING, OPEN, TRIGGER PENDING, MODIFY… PENDING, AMO REQ RECEIVED) is live at the broker: ACCEPTED, or
 * PARTIALLY_FILLED once something filled.
 */
export function kiteStatus(status: string, filledQty: number): BrokerOrderStatus {
  switch (status) {
    case 'COMPLETE':
      return 'FILLED';
    case 'REJECTED':
      return 'REJECTED';
    case 'CANCELLED':
    case 'CANCELLED AMO':
      return 'CANCELLED';
    case 'LAPSED':
      return 'EXPIRED';
    default:
      return filledQty > 0 ? 'PARTIALLY_FILLED' : 'ACCEPTED';
  }
}

const STAMP_RE = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Kite's `YYYY-MM-DD HH:mm:ss` (IST) as epoch ms, or undefined when absent or malformed. */
export function kiteTime(stamp: string | null | undefined): number | undefined {
  const match = STAMP_RE.exec(stamp ?? '');
  if (!match) return undefined;
  const [, date, h, m, s] = match;
  try {
    return istDateTime(date ?? '', Number(h) * 60 + Number(m)) + Number(s) * 1_000;
  } catch {
    return undefined;
  }
}

/** One Kite order as the engine's snapshot; the client order id comes back from the tag. */
export function toSnapshot(order: KiteOrder, fallbackTime: number): BrokerOrderSnapshot {
  const clientOrderId = clientOrderIdOfTag(order.tag);
  const snapshot: { -readonly [K in keyof BrokerOrderSnapshot]: BrokerOrderSnapshot[K] } = {
    brokerOrderId: order.order_id,
    status: kiteStatus(order.status, order.filled_quantity),
    filledQty: order.filled_quantity,
    avgPrice: order.average_price,
    time: kiteTime(order.exchange_update_timestamp) ?? kiteTime(order.order_timestamp) ?? fallbackTime,
  };
  if (clientOrderId !== undefined) snapshot.clientOrderId = clientOrderId;
  if (order.status_message) snapshot.reason = order.status_message;
  return snapshot;
}
