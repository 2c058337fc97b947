// Alice Blue ANT's wire shapes (only the fields the adapter reads) and their translation into the engine's order
// types, done once here. ANT is a NEST-style OMS behind a REST gateway: numbers come as text ("65", "120.50",
// "1,234.00") or as JSON numbers, field names are NEST's (`Nstordno`, `Fillshares`, `Trsym`, …), and a refusal is
// `{stat: "Not_Ok", emsg}` — also inside the placement's answer array.
import { z } from 'zod';
import { IST_OFFSET_MS, type BrokerOrderSnapshot, type BrokerOrderStatus } from '@optionpilot/engine';
import { clientOrderIdOfTag } from '../orderTag';

/** A number as ANT sends it: a JSON number or its text (thousands separators allowed); empty is 0. */
export const aliceNumber = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const text = v.replace(/,/g, '').trim();
  return text === '' ? 0 : Number(text);
}, z.number());

const aliceId = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().min(1));

/** `sso/getUserDetails`: the vendor login's answer. */
export const aliceUserDetailsSchema = z.object({
  userSession: z.string().min(1),
  clientId: z.string().nullish(),
});

/** `customer/accountDetails`. */
export const aliceProfileSchema = z.object({
  accountId: z.string().min(1),
  accountName: z.string().default(''),
});

/** `limits/getRmsLimits`: one row per segment; `ALL` carries the account's totals. */
export const aliceLimitSchema = z.object({
  segment: z.string().nullish(),
  net: aliceNumber.default(0),
  cashmarginavailable: aliceNumber.default(0),
});

/** `placeOrder/executePlaceOrder`: one answer per order of the request array. */
export const alicePlacedSchema = z.object({ NOrdNo: aliceId });

/** `modifyOrder` / `cancelOrder`: only the status matters (a refusal was already thrown). */
export const aliceAckSchema = z.unknown();

/** One order: the order book's rows and `orderHistory`'s latest entry. */
export const aliceOrderRowSchema = z.object({
  Nstordno: aliceId,
  Status: z.string().nullish(),
  Trantype: z.string().nullish(),
  Prctype: z.string().nullish(),
  Pcode: z.string().nullish(),
  Exchange: z.string().nullish(),
  Trsym: z.string().nullish(),
  token: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().nullish()),
  Qty: aliceNumber.default(0),
  Prc: aliceNumber.default(0),
  Trgprc: aliceNumber.default(0),
  Avgprc: aliceNumber.default(0),
  Fillshares: aliceNumber.default(0),
  RejReason: z.string().nullish(),
  remarks: z.string().nullish(),
  OrderedTime: z.string().nullish(),
});
export type AliceOrderRow = z.infer<typeof aliceOrderRowSchema>;

/** `positionAndHoldings/positionBook`: one net position of the day. */
export const alicePositionSchema = z.object({
  Exchange: z.string(),
  Token: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().nullish()),
  Tsym: z.string(),
  Netqty: aliceNumber,
  Buyavgprc: aliceNumber.default(0),
  Sellavgprc: aliceNumber.default(0),
  realisedprofitloss: aliceNumber.default(0),
});
export type AlicePosition = z.infer<typeof alicePositionSchema>;

/** `placeOrder/fetchTradeBook`: one fill. */
export const aliceTradeSchema = z.object({
  Nstordno: aliceId,
  Trsym: z.string().nullish(),
  Trantype: z.string().nullish(),
  Price: aliceNumber.default(0),
  Filledqty: aliceNumber.default(0),
});
export type AliceTrade = z.infer<typeof aliceTradeSchema>;

/**
 * Statuses that end an order (ANT answers them lowercase; the socket's NOREN messages uppercase, and NOREN spells
 * CANCELED with one L). Every other status — `open`, `trigger pending`, `modify pending`, `validation pending`,
 * `after market order req received`, any added later — is an order still live at the broker.
 */
const TERMINAL: Readonly<Record<string, BrokerOrderStatus>> = {
  complete: 'FILLED',
  rejected: 'REJECTED',
  cancelled: 'CANCELLED',
  canceled: 'CANCELLED',
};

/** The engine status of an ANT status and the cumulative fill. */
export function aliceStatus(status: string | null | undefined, filledQty: number): BrokerOrderStatus {
  const terminal = TERMINAL[(status ?? '').trim().toLowerCase()];
  if (terminal !== undefined) return terminal;
  return filledQty > 0 ? 'PARTIALLY_FILLED' : 'ACCEPTED';
}

const STAMP_RE = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/** Epoch ms of ANT's `26/11/2026 09:15:02` (IST), or undefined when absent or of another form. */
export function aliceTime(stamp: string | null | undefined): number | undefined {
  const match = STAMP_RE.exec((stamp ?? '').trim());
  if (match === null) return undefined;
  const [d, m, y, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, m - 1, d, h, mi, s) - IST_OFFSET_MS;
}

/** ANT's `26/11/2026 09:15:02` for an instant (IST); the fake builds rows with it. */
export function formatAliceTime(time: number): string {
  const ist = new Date(time + IST_OFFSET_MS);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${two(ist.getUTCDate())}/${two(ist.getUTCMonth() + 1)}/${ist.getUTCFullYear()} ` +
    `${two(ist.getUTCHours())}:${two(ist.getUTCMinutes())}:${two(ist.getUTCSeconds())}`
  );
}

/** One ANT order as the engine's snapshot; the client order id comes back from `remarks` (the order tag). */
export function toSnapshot(row: AliceOrderRow, fallbackTime: number): BrokerOrderSnapshot {
  const status = aliceStatus(row.Status, row.Fillshares);
  const clientOrderId = clientOrderIdOfTag(row.remarks);
  const reason =
    (status === 'REJECTED' || status === 'CANCELLED') && row.RejReason ? row.RejReason : undefined;
  return {
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
    brokerOrderId: row.Nstordno,
    status,
    filledQty: row.Fillshares,
    avgPrice: row.Avgprc,
    ...(reason === undefined ? {} : { reason }),
    time: aliceTime(row.OrderedTime) ?? fallbackTime,
  };
}
