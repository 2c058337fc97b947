// Upstox order rows (order details, history, order book and portfolio-stream updates share these fields) and
// their lowercase statuses, mapped once here into the engine's `BrokerOrderSnapshot`.
import { IST_OFFSET_MS } from '@optionpilot/engine';
import type { BrokerOrderSnapshot, BrokerOrderStatus } from '@optionpilot/engine';
import { z } from 'zod';
import { algoOrderTag, clientOrderIdOfTag } from '../orderTag';

export { clientOrderIdOfTag } from '../orderTag';

/** The fields of an Upstox order row the adapter reads. */
export const upstoxOrderRowSchema = z.object({
  order_id: z.string().min(1),
  status: z.string(),
  quantity: z.number().nonnegative().optional(),
  filled_quantity: z.number().nonnegative().nullish(),
  average_price: z.number().nonnegative().nullish(),
  price: z.number().nullish(),
  trigger_price: z.number().nullish(),
  order_type: z.string().nullish(),
  tag: z.string().nullish(),
  status_message: z.string().nullish(),
  order_timestamp: z.string().nullish(),
  exchange_timestamp: z.string().nullish(),
  instrument_token: z.string().nullish(),
});
export type UpstoxOrderRow = z.infer<typeof upstoxOrderRowSchema>;

/**
 * Upstox's order statuses (lowercase, with spaces) that end an order. Every other status — `put order req
 * received`, `validation pending`, `open pending`, `open`, `trigger pending`, `modify pending`, `modified`,
 * `not modified`, `cancel pending`, `not cancelled`, after-market states, and any status Upstox adds later — is a
 * live order: ACCEPTED, or PARTIALLY_FILLED once something has filled.
 */
const TERMINAL_STATUS: Readonly<Record<string, BrokerOrderStatus>> = {
  complete: 'FILLED',
  rejected: 'REJECTED',
  cancelled: 'CANCELLED',
  'cancelled after market order': 'CANCELLED',
};

/** The engine status of an Upstox status string and cumulative fill. */
export function toBrokerStatus(status: string, filledQty: number): BrokerOrderStatus {
  const terminal = TERMINAL_STATUS[status.trim().toLowerCase()];
  if (terminal !== undefined) return terminal;
  return filledQty > 0 ? 'PARTIALLY_FILLED' : 'ACCEPTED';
}

/** The tag sent with an order: the algo tag and the client order id, within Upstox's 40 characters. */
export const UPSTOX_TAG_MAX_LENGTH = 40;

/** Upstox's tag: `<algo tag>-<client id without dashes>` in 40 characters (the algo tag is cut, never the id). */
export function upstoxTag(algoTag: string, clientOrderId: string): string {
  return algoOrderTag(algoTag, clientOrderId, UPSTOX_TAG_MAX_LENGTH, '-');
}

const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/** Epoch ms of an Upstox `YYYY-MM-DD HH:mm:ss` timestamp (IST), or undefined for another form. */
export function parseUpstoxTimestamp(text: string | null | undefined): number | undefined {
  const match = text ? TIMESTAMP_RE.exec(text) : null;
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s) - IST_OFFSET_MS;
}

/** The engine's view of an Upstox order row. */
export function toSnapshot(row: UpstoxOrderRow, now: number): BrokerOrderSnapshot {
  const filledQty = row.filled_quantity ?? 0;
  const status = toBrokerStatus(row.status, filledQty);
  const time =
    parseUpstoxTimestamp(row.exchange_timestamp) ?? parseUpstoxTimestamp(row.order_timestamp) ?? now;
  const clientOrderId = clientOrderIdOfTag(row.tag);
  const reason =
    (status === 'REJECTED' || status === 'CANCELLED') && row.status_message ? row.status_message : undefined;
  return {
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
    brokerOrderId: row.order_id,
    status,
    filledQty,
    avgPrice: row.average_price ?? 0,
    ...(reason === undefined ? {} : { reason }),
    time,
  };
}
