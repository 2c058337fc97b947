// Groww Trade API's wire shapes (only the fields the adapter reads) and their translation into the engine's order
// types, done once here. Prices are rupees (decimals), quantities integers; times are IST wall-clock without a zone
// (`2023-10-01T10:15:30`) or UTC with a `Z` (`trade_date`), so both forms are read.
import { z } from 'zod';
import { IST_OFFSET_MS, type BrokerOrderSnapshot, type BrokerOrderStatus } from '@optionpilot/engine';
import { clientOrderIdOfTag } from '../orderTag';

/** A number that may arrive as `null` (an order not yet priced or filled): 0. */
const num = z
  .number()
  .nullish()
  .transform((v) => v ?? 0);

/** `POST /v1/token/api/access` — not wrapped in the `{status, payload}` envelope (Groww's curl docs). */
export const growwTokenSchema = z.object({
  token: z.string().min(1),
  tokenRefId: z.string().nullish(),
  expiry: z.string().nullish(),
  isActive: z.boolean().nullish(),
});

/** `GET /v1/user/detail`. Groww's profile has no display name: the UCC names the account. */
export const growwUserSchema = z.object({
  vendor_user_id: z.string().nullish(),
  ucc: z.string().min(1),
  active_segments: z.array(z.string()).nullish(),
});

/** `GET /v1/margins/detail/user` (rupees). */
export const growwMarginSchema = z.object({
  clear_cash: num,
  net_margin_used: num,
  fno_margin_details: z
    .object({ option_buy_balance_available: num })
    .nullish()
    .transform((v) => v ?? { option_buy_balance_available: 0 }),
});

/** `create` / `modify` / `cancel` answers. */
export const growwOrderAckSchema = z.object({
  groww_order_id: z.string().min(1),
  order_status: z.string().nullish(),
});

/** `GET /v1/order/status/{id}` and `…/status/reference/{ref}`: status without prices. */
export const growwOrderStatusSchema = z.object({
  groww_order_id: z.string().min(1),
  order_status: z.string().nullish(),
  filled_quantity: num,
  remark: z.string().nullish(),
  order_reference_id: z.string().nullish(),
});

/** One order: `GET /v1/order/detail/{id}` and the rows of `GET /v1/order/list`. */
export const growwOrderSchema = z.object({
  groww_order_id: z.string().min(1),
  trading_symbol: z.string().nullish(),
  order_status: z.string().nullish(),
  remark: z.string().nullish(),
  quantity: num,
  price: num,
  trigger_price: num,
  filled_quantity: num,
  average_fill_price: num,
  order_type: z.string().nullish(),
  transaction_type: z.string().nullish(),
  segment: z.string().nullish(),
  product: z.string().nullish(),
  created_at: z.string().nullish(),
  exchange_time: z.string().nullish(),
  order_reference_id: z.string().nullish(),
});
export type GrowwOrder = z.infer<typeof growwOrderSchema>;

/** `GET /v1/order/list` (one page). */
export const growwOrderListSchema = z.object({
  order_list: z
    .array(growwOrderSchema)
    .nullish()
    .transform((v) => v ?? []),
});

/** `GET /v1/positions/user?segment=FNO`. */
export const growwPositionsSchema = z.object({
  positions: z
    .array(
      z.object({
        trading_symbol: z.string(),
        exchange: z.string().nullish(),
        quantity: num,
        credit_quantity: num,
        credit_price: num,
        debit_quantity: num,
        debit_price: num,
        net_price: num,
        realised_pnl: num,
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
});

/**
 * Groww's order statuses (annexure) that end an order. Every other status — NEW, ACKED, OPEN, APPROVED,
 * TRIGGER_PENDING, MODIFICATION_REQUESTED, CANCELLATION_REQUESTED and any Groww adds later — is an order still live.
 */
const TERMINAL: Readonly<Record<string, BrokerOrderStatus>> = {
  EXECUTED: 'FILLED',
  COMPLETED: 'FILLED',
  DELIVERY_AWAITED: 'FILLED',
  REJECTED: 'REJECTED',
  FAILED: 'REJECTED',
  CANCELLED: 'CANCELLED',
};

/** The engine status of a Groww status and the cumulative fill. */
export function growwStatus(status: string | null | undefined, filledQty: number): BrokerOrderStatus {
  const terminal = TERMINAL[(status ?? '').trim().toUpperCase()];
  if (terminal !== undefined) return terminal;
  return filledQty > 0 ? 'PARTIALLY_FILLED' : 'ACCEPTED';
}

const STAMP_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z)?$/;

/** Epoch ms of Groww's `2023-10-01T10:15:30` (IST) or `…Z` (UTC), or undefined. */
export function growwTime(stamp: string | null | undefined): number | undefined {
  const match = STAMP_RE.exec((stamp ?? '').trim());
  if (match === null) return undefined;
  const [y, mo, d, h, mi, s] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  return match[7] === 'Z' ? utc : utc - IST_OFFSET_MS;
}

/** `2023-10-01T10:15:30` (IST) of an instant; the fake and tests build rows with it. */
export function formatGrowwTime(time: number): string {
  return new Date(time + IST_OFFSET_MS).toISOString().slice(0, 19);
}

/** One Groww order as the engine's snapshot; the client order id comes back from `order_reference_id`. */
export function toSnapshot(row: GrowwOrder, fallbackTime: number): BrokerOrderSnapshot {
  const status = growwStatus(row.order_status, row.filled_quantity);
  const clientOrderId = clientOrderIdOfTag(row.order_reference_id);
  const reason = (status === 'REJECTED' || status === 'CANCELLED') && row.remark ? row.remark : undefined;
  return {
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
    brokerOrderId: row.groww_order_id,
    status,
    filledQty: row.filled_quantity,
    avgPrice: row.average_fill_price,
    ...(reason === undefined ? {} : { reason }),
    time: growwTime(row.exchange_time) ?? growwTime(row.created_at) ?? fallbackTime,
  };
}
