// Dhan v2's wire shapes (only the fields the adapter reads; Dhan sends many more) and their translation into the
// engine's order types, done once here. Order rows come from the order book (`GET /v2/orders`), one order
// (`/v2/orders/{id}`, `/v2/orders/external/{correlationId}`) and the order update socket, whose `order_alert`
// messages spell the same facts in other names (`OrderNo`, `TradedQty`, `Status: "Traded"`): they are read into the
// order book's row here, so the rest of the folder knows one row.
import { z } from 'zod';
import { IST_OFFSET_MS, type BrokerOrderSnapshot, type BrokerOrderStatus } from '@optionpilot/engine';
import { clientOrderIdOfTag } from '../orderTag';

/** A number as Dhan sends it: a JSON number, or its text in a few older answers. */
const num = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number());
/** An id sent as text or as a JSON number. */
const id = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().min(1));

/** `POST /v2/orders`, `PUT` and `DELETE /v2/orders/{id}`. */
export const dhanOrderAckSchema = z.object({ orderId: id, orderStatus: z.string().nullish() });

/** One order: the order book's rows and the single-order answers. */
export const dhanOrderRowSchema = z.object({
  orderId: id,
  correlationId: z.string().nullish(),
  orderStatus: z.string().nullish(),
  transactionType: z.string().nullish(),
  exchangeSegment: z.string().nullish(),
  productType: z.string().nullish(),
  orderType: z.string().nullish(),
  validity: z.string().nullish(),
  securityId: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().nullish()),
  quantity: num.default(0),
  price: num.default(0),
  triggerPrice: num.default(0),
  filledQty: num.default(0),
  averageTradedPrice: num.default(0),
  omsErrorDescription: z.string().nullish(),
  createTime: z.string().nullish(),
  updateTime: z.string().nullish(),
  exchangeTime: z.string().nullish(),
});
export type DhanOrderRow = z.infer<typeof dhanOrderRowSchema>;

/** `/v2/orders/external/{correlationId}` answers a list (one row per leg or modification). */
export const dhanOrderRowsSchema = z.union([
  z.array(dhanOrderRowSchema),
  dhanOrderRowSchema.transform((r) => [r]),
]);

/** `GET /v2/positions`: one net position of the day. */
export const dhanPositionSchema = z.object({
  exchangeSegment: z.string(),
  securityId: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string()),
  tradingSymbol: z.string().default(''),
  netQty: num,
  buyAvg: num.default(0),
  sellAvg: num.default(0),
  realizedProfit: num.default(0),
});

/** `GET /v2/fundlimit` (Dhan's own spelling: `availabelBalance`). */
export const dhanFundsSchema = z.object({
  availabelBalance: num,
  sodLimit: num.default(0),
  utilizedAmount: num.default(0),
});

/** `GET /v2/profile`. */
export const dhanProfileSchema = z.object({
  dhanClientId: id,
  tokenValidity: z.string().nullish(),
});

/** `GET /v2/trades`: one fill. */
export const dhanTradeSchema = z.object({
  orderId: id,
  exchangeTradeId: z.string().nullish(),
  securityId: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().nullish()),
  transactionType: z.string().nullish(),
  tradedQuantity: num,
  tradedPrice: num,
  exchangeTime: z.string().nullish(),
});
export type DhanTrade = z.infer<typeof dhanTradeSchema>;

/** The order update socket's `Data` of an `order_alert` message. */
export const dhanOrderAlertSchema = z.object({
  OrderNo: id,
  CorrelationId: z.string().nullish(),
  Status: z.string(),
  Quantity: num.default(0),
  TradedQty: num.default(0),
  Price: num.default(0),
  TriggerPrice: num.default(0),
  AvgTradedPrice: num.default(0),
  SecurityId: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().nullish()),
  ReasonDescription: z.string().nullish(),
  LastUpdatedTime: z.string().nullish(),
});

/** An `order_alert`'s data as an order book row. */
export function rowOfAlert(alert: z.infer<typeof dhanOrderAlertSchema>): DhanOrderRow {
  return {
    orderId: alert.OrderNo,
    correlationId: alert.CorrelationId ?? null,
    orderStatus: alert.Status,
    securityId: alert.SecurityId ?? null,
    quantity: alert.Quantity,
    price: alert.Price,
    triggerPrice: alert.TriggerPrice,
    filledQty: alert.TradedQty,
    averageTradedPrice: alert.AvgTradedPrice,
    omsErrorDescription: alert.ReasonDescription ?? null,
    updateTime: alert.LastUpdatedTime ?? null,
  };
}

/**
 * Dhan's statuses that end an order (upper case; the socket spells them `Traded`, `Cancelled`, …). Every other —
 * TRANSIT, PENDING, PART_TRADED, TRIGGERED, MODIFIED, and any status Dhan adds later — is an order still live.
 */
const TERMINAL: Readonly<Record<string, BrokerOrderStatus>> = {
  TRADED: 'FILLED',
  REJECTED: 'REJECTED',
  CANCELLED: 'CANCELLED',
  EXPIRED: 'EXPIRED',
};

/** The engine status of a Dhan status and the cumulative fill. */
export function dhanStatus(status: string | null | undefined, filledQty: number): BrokerOrderStatus {
  const terminal = TERMINAL[(status ?? '').trim().toUpperCase()];
  if (terminal !== undefined) return terminal;
  return filledQty > 0 ? 'PARTIALLY_FILLED' : 'ACCEPTED';
}

const STAMP_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Epoch ms of Dhan's `2026-11-24 13:33:03` (IST), or undefined when absent or of another form. */
export function dhanTime(stamp: string | null | undefined): number | undefined {
  const m = STAMP_RE.exec((stamp ?? '').trim());
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s) - IST_OFFSET_MS;
}

/** Dhan's `YYYY-MM-DD HH:MM:SS` (IST) for an instant; the fake builds rows with it. */
export function formatDhanTime(time: number): string {
  return new Date(time + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** One Dhan order as the engine's snapshot; the client order id comes back from `correlationId`. */
export function toSnapshot(row: DhanOrderRow, fallbackTime: number): BrokerOrderSnapshot {
  const status = dhanStatus(row.orderStatus, row.filledQty);
  const clientOrderId = clientOrderIdOfTag(row.correlationId);
  const reason =
    (status === 'REJECTED' || status === 'CANCELLED') && row.omsErrorDescription
      ? row.omsErrorDescription
      : undefined;
  return {
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
    brokerOrderId: row.orderId,
    status,
    filledQty: row.filledQty,
    avgPrice: row.averageTradedPrice,
    ...(reason === undefined ? {} : { reason }),
    time: dhanTime(row.exchangeTime) ?? dhanTime(row.updateTime) ?? fallbackTime,
  };
}
