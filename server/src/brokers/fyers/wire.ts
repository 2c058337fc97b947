// Fyers API v3 wire shapes (only the fields the adapter reads; Fyers sends more) and their translation into the
// engine's order types, done once here at the edge. Two shapes carry an order: the REST order book's camelCase rows
// and the order socket's snake_case messages, whose `ord_status` is the exchange-level code that the official client
// maps onto the REST status (its `ordstatobj` table, copied below as facts).
import { z } from 'zod';
import type { BrokerOrderSnapshot, BrokerOrderStatus } from '@optionpilot/engine';
import { clientOrderIdOfTag } from '../orderTag';

/** Fyers order types. */
export const FYERS_ORDER_TYPE = { LIMIT: 1, MARKET: 2, 'SL-M': 3, SL: 4 } as const;

/** REST order statuses: 1 cancelled, 2 traded, 4 transit, 5 rejected, 6 pending, 7 expired. */
export const FYERS_STATUS = {
  CANCELLED: 1,
  TRADED: 2,
  TRANSIT: 4,
  REJECTED: 5,
  PENDING: 6,
  EXPIRED: 7,
} as const;

/** The order socket's `ord_status` → the REST status (the official client's table). */
export const SOCKET_STATUS_TO_REST: Readonly<Record<number, number>> = {
  11: 4,
  12: 4,
  20: 4,
  21: 4,
  22: 6,
  23: 6,
  24: 6,
  25: 6,
  26: 6,
  90: 2,
  91: 1,
  92: 5,
  93: 5,
  94: 5,
  51: 6,
  52: 6,
  53: 6,
  54: 6,
  55: 6,
  61: 6,
  62: 6,
  63: 6,
  64: 6,
  71: 6,
  72: 6,
  73: 1,
};

/** One row of `GET /api/v3/orders` (`orderBook`). */
export const fyersOrderRowSchema = z.object({
  id: z.string().min(1),
  status: z.number(),
  qty: z.number(),
  filledQty: z.number().default(0),
  limitPrice: z.number().default(0),
  stopPrice: z.number().default(0),
  tradedPrice: z.number().default(0),
  type: z.number(),
  side: z.number(),
  symbol: z.string(),
  orderTag: z.string().nullish(),
  message: z.string().nullish(),
});
export type FyersOrderRow = z.infer<typeof fyersOrderRowSchema>;

export const fyersOrderBookSchema = z.object({
  s: z.literal('ok'),
  orderBook: z.array(fyersOrderRowSchema).default([]),
});

/** The answer of place / modify / cancel (`code` 1101 / 1102 / 1103). */
export const fyersOrderIdSchema = z.object({ s: z.literal('ok'), id: z.string().min(1) });

export const fyersTradeBookSchema = z.object({
  s: z.literal('ok'),
  tradeBook: z
    .array(z.object({ orderNumber: z.string(), tradedQty: z.number(), tradePrice: z.number() }))
    .default([]),
});

export const fyersPositionsSchema = z.object({
  s: z.literal('ok'),
  netPositions: z
    .array(
      z.object({
        symbol: z.string(),
        netQty: z.number(),
        netAvg: z.number().default(0),
        buyAvg: z.number().default(0),
        sellAvg: z.number().default(0),
        realized_profit: z.number().default(0),
      }),
    )
    .default([]),
});

/** An order message of the order socket (`{"orders": {…}}`). */
export const fyersSocketOrderSchema = z.object({
  id: z.string().min(1),
  ord_status: z.number(),
  qty: z.number(),
  qty_filled: z.number().default(0),
  price_limit: z.number().default(0),
  price_stop: z.number().default(0),
  price_traded: z.number().default(0),
  ord_type: z.number().default(0),
  tran_side: z.number().default(0),
  symbol: z.string().default(''),
  ordertag: z.string().nullish(),
  oms_msg: z.string().nullish(),
});

/** The socket's order message as an order-book row. */
export function rowOfSocketOrder(order: z.infer<typeof fyersSocketOrderSchema>): FyersOrderRow {
  return {
    id: order.id,
    status: SOCKET_STATUS_TO_REST[order.ord_status] ?? FYERS_STATUS.TRANSIT,
    qty: order.qty,
    filledQty: order.qty_filled,
    limitPrice: order.price_limit,
    stopPrice: order.price_stop,
    tradedPrice: order.price_traded,
    type: order.ord_type,
    side: order.tran_side,
    symbol: order.symbol,
    orderTag: order.ordertag,
    message: order.oms_msg,
  };
}

function statusOf(row: FyersOrderRow): BrokerOrderStatus {
  switch (row.status) {
    case FYERS_STATUS.TRADED:
      return 'FILLED';
    case FYERS_STATUS.CANCELLED:
      return 'CANCELLED';
    case FYERS_STATUS.REJECTED:
      return 'REJECTED';
    case FYERS_STATUS.EXPIRED:
      return 'EXPIRED';
    default:
      // Transit (4) and pending (6): live at the broker.
      return row.filledQty > 0 ? 'PARTIALLY_FILLED' : 'ACCEPTED';
  }
}

/** An order row → the engine's snapshot; `now` stamps it (Fyers' times are IST strings without seconds' zone). */
export function toSnapshot(row: FyersOrderRow, now: number): BrokerOrderSnapshot {
  const status = statusOf(row);
  const clientOrderId = clientOrderIdOfTag(row.orderTag);
  return {
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
    brokerOrderId: row.id,
    status,
    filledQty: row.filledQty,
    avgPrice: row.tradedPrice,
    // Fyers' own text is never shown to traders: the status code is the reason.
    ...(status === 'REJECTED' ? { reason: `fyers status ${row.status}` } : {}),
    time: now,
  };
}
