// The Groww fake's order writes (create, modify, cancel) with the checks Groww makes, and its reply envelopes:
// `{status: "SUCCESS", payload}` / `{status: "FAILURE", error: {code, message}}`.
import type { JsonReply as Reply } from '../reply';
import type { GrowwFakeInstrument } from './instruments';
import type { GrowwFakeBook } from './orderBook';

export const GROWW_FAKE_FREEZE_QTY = 1_800;

/** An 8–20 character reference: letters and digits, at most two hyphens between them. */
const REFERENCE_RE = /^(?=.{8,20}$)[A-Za-z0-9]+(?:-[A-Za-z0-9]+){0,2}$/;

export const ok = (payload: unknown): Reply => ({ status: 200, json: { status: 'SUCCESS', payload } });
export const fail = (status: number, code: string | null, message: string): Reply => ({
  status,
  json: { status: 'FAILURE', error: { code, message, metadata: null } },
});

/** What the order writes read and change: the fake's book, its instruments and the lot size. */
export interface GrowwOrderDesk {
  readonly book: GrowwFakeBook;
  readonly instruments: readonly GrowwFakeInstrument[];
  readonly lotSize: number;
}

/** `POST /v1/order/create`: Groww's checks, then the order in the book. */
export function placeOrder(desk: GrowwOrderDesk, ucc: string, b: Record<string, unknown>): Reply {
  const instrument = desk.instruments.find((i) => i.tradingSymbol === b.trading_symbol);
  const quantity = Number(b.quantity);
  const reference = String(b.order_reference_id ?? '');
  if (b.exchange !== 'NSE' || b.segment !== 'FNO' || b.validity !== 'DAY') {
    return fail(400, 'GA001', 'Invalid exchange, segment or validity');
  }
  if (instrument === undefined) return fail(400, 'GA001', 'Invalid trading symbol.');
  if (!['LIMIT', 'SL'].includes(String(b.order_type))) {
    return fail(400, 'GA001', 'Market orders are not accepted from APIs');
  }
  if (!['MIS', 'NRML'].includes(String(b.product)) || !['BUY', 'SELL'].includes(String(b.transaction_type))) {
    return fail(400, 'GA001', 'Invalid product or transaction type');
  }
  if (!(quantity > 0) || quantity % desk.lotSize !== 0 || quantity > GROWW_FAKE_FREEZE_QTY) {
    return fail(400, 'GA001', 'Invalid quantity');
  }
  if (!REFERENCE_RE.test(reference)) return fail(400, 'GA001', 'Invalid order reference id');
  if (desk.book.byReference(ucc, reference) !== undefined) {
    return fail(400, 'GA007', 'Duplicate order reference id');
  }
  const order = desk.book.add(ucc, {
    trading_symbol: instrument.tradingSymbol,
    quantity,
    price: Number(b.price ?? 0),
    trigger_price: Number(b.trigger_price ?? 0),
    order_type: String(b.order_type),
    transaction_type: String(b.transaction_type) as 'BUY' | 'SELL',
    product: String(b.product),
    order_reference_id: reference,
  });
  return ok({
    groww_order_id: order.groww_order_id,
    order_status: order.order_status,
    order_reference_id: reference,
    remark: 'Order placed successfully',
  });
}

/** `POST /v1/order/modify`: quantity and prices of an open order of the account, same order type. */
export function modifyOrder(desk: GrowwOrderDesk, ucc: string, b: Record<string, unknown>): Reply {
  const order = desk.book.get(String(b.groww_order_id ?? ''));
  if (order === undefined || order.ucc !== ucc) return fail(404, 'GA004', 'Requested entity does not exist');
  if (b.segment !== 'FNO' || b.order_type !== order.order_type) return fail(400, 'GA001', 'Bad request');
  if (!desk.book.isOpen(order)) return fail(400, 'GA006', 'Cannot process this request');
  desk.book.modify(order.groww_order_id, {
    quantity: Number(b.quantity ?? order.quantity),
    price: Number(b.price ?? order.price),
    trigger_price: Number(b.trigger_price ?? order.trigger_price),
  });
  return ok({ groww_order_id: order.groww_order_id, order_status: 'OPEN' });
}

/** `POST /v1/order/cancel`: an open order of the account. */
export function cancelOrder(desk: GrowwOrderDesk, ucc: string, b: Record<string, unknown>): Reply {
  const order = desk.book.get(String(b.groww_order_id ?? ''));
  if (order === undefined || order.ucc !== ucc) return fail(404, 'GA004', 'Requested entity does not exist');
  if (!desk.book.isOpen(order)) return fail(400, 'GA006', 'Cannot process this request');
  desk.book.cancel(order.groww_order_id);
  return ok({ groww_order_id: order.groww_order_id, order_status: 'CANCELLED' });
}
