// The fake's order-writing endpoints: POST /orders/regular (place), PUT /orders/regular/:id (modify) and
// DELETE /orders/regular/:id (cancel), with Kite's validation (market protection required on MARKET / SL-M,
// alphanumeric tag ≤ 20, whole lots, the exchange freeze quantity) and the injected faults.
import type { ServerResponse } from 'node:http';
import { sendError, sendJson, type KiteError } from './replies';
import type { KiteFake } from './server';

export type OrderRoute = 'place' | 'modify' | 'cancel';

/** NIFTY options' exchange freeze quantity (DOMAIN.md §1). */
export const FAKE_FREEZE_QTY = 1_800;

const FAULT_ERRORS: Readonly<Record<string, KiteError>> = {
  reject: {
    status: 400,
    errorType: 'OrderException',
    message: 'Your order price is lower than the current lower circuit limit.',
  },
  rate_limit: { status: 429, errorType: 'NetworkException', message: 'Too many requests' },
  server_error: { status: 500, errorType: 'GeneralException', message: 'Something went wrong' },
  token_expired: {
    status: 403,
    errorType: 'TokenException',
    message: 'Incorrect `api_key` or `access_token`.',
  },
  // Kite's permission error: orders from an IP not whitelisted in the developer console are refused.
  ip_not_allowed: {
    status: 403,
    errorType: 'PermissionException',
    message: 'Orders are not allowed from this IP address.',
  },
};

const input = (message: string): KiteError => ({ status: 400, errorType: 'InputException', message });

function num(form: URLSearchParams, key: string): number | undefined {
  const raw = form.get(key);
  return raw === null || raw === '' ? undefined : Number(raw);
}

export function handleOrderRequest(
  fake: KiteFake,
  userId: string,
  method: string,
  path: string,
  form: URLSearchParams,
  res: ServerResponse,
): void {
  const id = /^\/orders\/regular\/([^/]+)$/.exec(path)?.[1];
  const route: OrderRoute | undefined =
    method === 'POST' && path === '/orders/regular'
      ? 'place'
      : method === 'PUT' && id
        ? 'modify'
        : method === 'DELETE' && id
          ? 'cancel'
          : undefined;
  if (!route)
    return sendError(res, { status: 404, errorType: 'GeneralException', message: 'Route not found' });
  fake.orderRequests.record(route, userId);
  const fault = fake.faults.take(route);
  const refusal = fault === undefined ? undefined : FAULT_ERRORS[fault];
  if (refusal) return sendError(res, refusal);
  if (route === 'place') return place(fake, userId, form, res, fault);
  const found = fake.book.get(id ?? '');
  if (!found || found.userId !== userId) return sendError(res, input("Couldn't find that `order_id`."));
  if (!['OPEN', 'TRIGGER PENDING'].includes(found.order.status)) {
    return sendError(res, {
      status: 400,
      errorType: 'OrderException',
      message: `Order cannot be modified as it is being ${found.order.status.toLowerCase()}.`,
    });
  }
  if (route === 'cancel') {
    const next = fake.book.update(found.order.order_id, {
      status: 'CANCELLED',
      cancelled_quantity: found.order.pending_quantity,
      pending_quantity: 0,
    });
    sendJson(res, 200, { status: 'success', data: { order_id: next.order_id } });
    void fake.postback(userId, next).catch(() => undefined);
    return;
  }
  const quantity = num(form, 'quantity') ?? found.order.quantity;
  fake.book.update(found.order.order_id, {
    quantity,
    pending_quantity: quantity - found.order.filled_quantity,
    price: num(form, 'price') ?? found.order.price,
    trigger_price: num(form, 'trigger_price') ?? found.order.trigger_price,
    modified: true,
  });
  sendJson(res, 200, { status: 'success', data: { order_id: found.order.order_id } });
}

function place(
  fake: KiteFake,
  userId: string,
  form: URLSearchParams,
  res: ServerResponse,
  fault: string | undefined,
): void {
  const exchange = form.get('exchange');
  const instrument = fake.instrument(form.get('tradingsymbol') ?? '');
  const side = form.get('transaction_type');
  const orderType = form.get('order_type') ?? '';
  const quantity = num(form, 'quantity') ?? 0;
  const price = num(form, 'price') ?? 0;
  const trigger = num(form, 'trigger_price') ?? 0;
  const protection = num(form, 'market_protection') ?? 0;
  const tag = form.get('tag');
  const product = form.get('product') ?? '';
  if (exchange !== 'NFO' || !instrument) return sendError(res, input('Invalid `tradingsymbol`.'));
  if (side !== 'BUY' && side !== 'SELL') return sendError(res, input('Invalid `transaction_type`.'));
  if (!['MARKET', 'LIMIT', 'SL', 'SL-M'].includes(orderType))
    return sendError(res, input('Invalid `order_type`.'));
  if (!['MIS', 'NRML'].includes(product)) return sendError(res, input('Invalid `product`.'));
  if (!Number.isInteger(quantity) || quantity <= 0 || quantity % instrument.lotSize !== 0) {
    return sendError(res, input('Quantity should be in multiples of lot size.'));
  }
  if (quantity > FAKE_FREEZE_QTY) return sendError(res, input('Quantity exceeds the freeze limit.'));
  if (
    (orderType === 'MARKET' || orderType === 'SL-M') &&
    !(protection === -1 || (protection >= 1 && protection <= 100))
  ) {
    return sendError(res, input('Market orders without market protection are not allowed.'));
  }
  if ((orderType === 'LIMIT' || orderType === 'SL') && !(price > 0))
    return sendError(res, input('Invalid `price`.'));
  if ((orderType === 'SL' || orderType === 'SL-M') && !(trigger > 0))
    return sendError(res, input('Invalid `trigger_price`.'));
  if (tag !== null && !/^[A-Za-z0-9]{1,20}$/.test(tag)) return sendError(res, input('Invalid `tag`.'));
  const order = fake.book.add(userId, {
    exchange: 'NFO',
    tradingsymbol: instrument.tradingSymbol,
    instrument_token: instrument.token,
    order_type: orderType,
    transaction_type: side,
    product,
    quantity,
    price,
    trigger_price: trigger,
    market_protection: protection,
    tag,
    tags: tag === null ? [] : [tag],
  });
  const answer = (): void => sendJson(res, 200, { status: 'success', data: { order_id: order.order_id } });
  if (fault === 'timeout_placed') return fake.faults.hold(answer);
  answer();
  // A stop rests (TRIGGER PENDING) until the test fills it, as at the exchange until its trigger is crossed.
  const resting = orderType === 'SL' || orderType === 'SL-M';
  if (fake.autoFillPrice !== undefined && fault === undefined && !resting) {
    void fake.fill(order.order_id, price > 0 ? price : fake.autoFillPrice).catch(() => undefined);
  }
  if (fault === 'partial_fill') {
    // Half the lots (at least one) fill at once; the rest stays open.
    const lots = quantity / instrument.lotSize;
    const filled = Math.max(1, Math.floor(lots / 2)) * instrument.lotSize;
    void fake.fill(order.order_id, price > 0 ? price : 100, filled).catch(() => undefined);
  }
}
