// SmartAPI's wire shapes (only the fields the adapter reads; Angel sends many more) and their translation into the
// engine's order types, done once here. Angel sends numbers as JSON numbers or as strings ("15", "0.00", "") and
// the same field both ways across endpoints, so every number is read through `angelNumber`.
import { z } from 'zod';
import { IST_OFFSET_MS, type BrokerOrderSnapshot, type BrokerOrderStatus } from '@optionpilot/engine';
import { clientOrderIdOfTag } from '../orderTag';

/** A number as Angel sends it: a JSON number or its text; an empty string is 0. */
export const angelNumber = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? 0 : Number(v)) : v),
  z.number(),
);

/** An id Angel sends as text or as a JSON number (the order book's `orderid` in its documented sample). */
const angelId = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().min(1));

/** A list that Angel sends as `null` when it is empty (order book, trade book, positions). */
export function angelList<T extends z.ZodType>(row: T) {
  return z
    .array(row)
    .nullish()
    .transform((rows) => rows ?? []);
}

/** `loginByPassword` (and `generateTokens`). */
export const angelLoginSchema = z.object({
  jwtToken: z.string().min(1),
  refreshToken: z.string().nullish(),
  feedToken: z.string().min(1),
});

/** `getProfile`. */
export const angelProfileSchema = z.object({
  clientcode: z.string().min(1),
  name: z.string().default(''),
});

/** `getRMS`: the account's funds, in rupees as text. */
export const angelRmsSchema = z.object({
  net: angelNumber,
  availablecash: angelNumber,
  utiliseddebits: angelNumber.optional(),
});

/** `placeOrder` / `modifyOrder` / `cancelOrder`. */
export const angelOrderIdSchema = z.object({
  orderid: angelId,
  uniqueorderid: z.string().nullish(),
});

/** One order: the order book's rows, `details/{uniqueorderid}` and the order-status socket's `orderData`. */
export const angelOrderRowSchema = z.object({
  orderid: angelId,
  uniqueorderid: z.string().nullish(),
  variety: z.string().nullish(),
  ordertype: z.string().nullish(),
  producttype: z.string().nullish(),
  transactiontype: z.string().nullish(),
  exchange: z.string().nullish(),
  tradingsymbol: z.string().nullish(),
  symboltoken: z.string().nullish(),
  quantity: angelNumber.default(0),
  price: angelNumber.default(0),
  triggerprice: angelNumber.default(0),
  averageprice: angelNumber.default(0),
  filledshares: angelNumber.default(0),
  unfilledshares: angelNumber.default(0),
  status: z.string().nullish(),
  orderstatus: z.string().nullish(),
  text: z.string().nullish(),
  ordertag: z.string().nullish(),
  updatetime: z.string().nullish(),
  exchorderupdatetime: z.string().nullish(),
});
export type AngelOrderRow = z.infer<typeof angelOrderRowSchema>;

/** `getTradeBook`: one fill. */
export const angelTradeSchema = z.object({
  orderid: angelId,
  fillid: z.string().nullish(),
  tradingsymbol: z.string().nullish(),
  transactiontype: z.string().nullish(),
  fillprice: angelNumber,
  fillsize: angelNumber,
  filltime: z.string().nullish(),
});
export type AngelTrade = z.infer<typeof angelTradeSchema>;

/** `getPosition`: one net position of the day. */
export const angelPositionSchema = z.object({
  exchange: z.string(),
  symboltoken: z.string().nullish(),
  tradingsymbol: z.string(),
  netqty: angelNumber,
  buyavgprice: angelNumber.default(0),
  sellavgprice: angelNumber.default(0),
  realised: angelNumber.default(0),
});
export type AngelPosition = z.infer<typeof angelPositionSchema>;

/**
 * Angel's order statuses (lowercase) that end an order. Every other status — `put order req received`,
 * `validation pending`, `open pending`, `open`, `trigger pending`, `modify validation pending`, `modified`,
 * `modify pending`, `not modified`, `cancel pending`, `not cancelled`, after-market states and any status Angel
 * adds later — is an order still live at the broker.
 */
const TERMINAL: Readonly<Record<string, BrokerOrderStatus>> = {
  complete: 'FILLED',
  rejected: 'REJECTED',
  cancelled: 'CANCELLED',
  'cancelled after market order': 'CANCELLED',
};

/** The engine status of an Angel status and the cumulative fill. */
export function angelStatus(status: string | null | undefined, filledQty: number): BrokerOrderStatus {
  const terminal = TERMINAL[(status ?? '').trim().toLowerCase()];
  if (terminal !== undefined) return terminal;
  return filledQty > 0 ? 'PARTIALLY_FILLED' : 'ACCEPTED';
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const STAMP_RE = /^(\d{2})-([A-Za-z]{3})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/** Epoch ms of Angel's `20-Oct-2020 13:10:59` (IST), or undefined when absent or of another form. */
export function angelTime(stamp: string | null | undefined): number | undefined {
  const match = STAMP_RE.exec((stamp ?? '').trim());
  if (match === null) return undefined;
  const [, d, mon, y, h, mi, s] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const month = MONTHS.indexOf(mon.toUpperCase());
  if (month < 0) return undefined;
  return Date.UTC(Number(y), month, Number(d), Number(h), Number(mi), Number(s)) - IST_OFFSET_MS;
}

/** The order's status text: the order book fills `status` and `orderstatus` alike; either may be empty. */
export function statusOf(row: AngelOrderRow): string {
  return row.orderstatus || row.status || '';
}

/** One Angel order as the engine's snapshot; the client order id comes back from `ordertag`. */
export function toSnapshot(row: AngelOrderRow, fallbackTime: number): BrokerOrderSnapshot {
  const status = angelStatus(statusOf(row), row.filledshares);
  const clientOrderId = clientOrderIdOfTag(row.ordertag);
  const reason = (status === 'REJECTED' || status === 'CANCELLED') && row.text ? row.text : undefined;
  return {
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
    brokerOrderId: row.orderid,
    status,
    filledQty: row.filledshares,
    avgPrice: row.averageprice,
    ...(reason === undefined ? {} : { reason }),
    time: angelTime(row.exchorderupdatetime) ?? angelTime(row.updatetime) ?? fallbackTime,
  };
}

/** Angel's `20-Oct-2020 13:10:59` for an instant (IST); the fake and tests build rows with it. */
export function formatAngelTime(time: number): string {
  const ist = new Date(time + IST_OFFSET_MS);
  const two = (n: number) => String(n).padStart(2, '0');
  const month = MONTHS[ist.getUTCMonth()] ?? 'JAN';
  return (
    `${two(ist.getUTCDate())}-${month.charAt(0)}${month.slice(1).toLowerCase()}-${ist.getUTCFullYear()} ` +
    `${two(ist.getUTCHours())}:${two(ist.getUTCMinutes())}:${two(ist.getUTCSeconds())}`
  );
}
