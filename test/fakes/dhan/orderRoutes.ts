// The fake's order writes: POST /v2/orders (place), PUT and DELETE /v2/orders/{id} (modify, cancel) with Dhan's
// checks (protected LIMIT / STOP_LOSS only, whole lots, the freeze quantity, prices on the tick, `correlationId` up
// to 25 characters, `securityId` from the scrip master, the account's client id) and the injected faults.
import type { ServerResponse } from 'node:http';
import type { BrokerFault } from '../../brokers/conformance';
import { error, INPUT, INVALID_AUTH, ORDER_ERROR, send, type Reply } from './replies';
import type { DhanFake } from './server';

export type OrderRoute = 'place' | 'modify' | 'cancel';

/** NIFTY options' exchange freeze quantity (DOMAIN.md §1). */
export const FAKE_FREEZE_QTY = 1_800;

const FAULT_REPLIES: Readonly<Partial<Record<BrokerFault, Reply>>> = {
  reject: ORDER_ERROR('Insufficient margin for the order'),
  rate_limit: error(
    429,
    'DH-904',
    'Rate_Limit',
    'Too many requests on server from single user breaching rate limits.',
  ),
  server_error: error(500, 'DH-908', 'Internal_Server_Error', 'Server was not able to process API request.'),
  token_expired: INVALID_AUTH,
  ip_not_allowed: error(
    403,
    'DH-911',
    'Invalid_IP',
    'Order request received from an IP that is not whitelisted.',
  ),
};

const onTick = (v: number): boolean => Math.abs(Math.round(v * 20) - v * 20) < 1e-6;

export function handleOrderWrite(
  fake: DhanFake,
  route: OrderRoute,
  clientId: string,
  body: Record<string, unknown>,
  orderId: string | undefined,
  res: ServerResponse,
): void {
  fake.orderRequests.record(route, clientId);
  const fault = fake.faults.take(route);
  const refusal = fault === undefined ? undefined : FAULT_REPLIES[fault];
  if (refusal !== undefined) return send(res, refusal);
  if (route === 'place') return place(fake, clientId, body, res, fault);
  const order = orderId === undefined ? undefined : fake.book.get(orderId);
  if (!order || order.dhanClientId !== clientId) return send(res, INPUT('Order not found'));
  if (!['PENDING', 'TRANSIT', 'PART_TRADED'].includes(order.orderStatus)) {
    return send(res, ORDER_ERROR(`Order cannot be modified or cancelled: it is ${order.orderStatus}`));
  }
  if (route === 'cancel') {
    const next = fake.book.update(order.orderId, { orderStatus: 'CANCELLED' });
    send(res, { status: 200, json: { orderId: next.orderId, orderStatus: 'CANCELLED' } });
    fake.sockets.pushOrder(clientId, next);
    return;
  }
  const quantity = Number(body.quantity ?? order.quantity);
  const price = Number(body.price ?? order.price);
  const trigger = Number(body.triggerPrice ?? order.triggerPrice);
  if (
    body.dhanClientId !== clientId ||
    body.orderId !== order.orderId ||
    body.orderType !== order.orderType ||
    !Number.isInteger(quantity) ||
    quantity % fake.lotSize !== 0 ||
    !(price > 0)
  ) {
    return send(res, INPUT('Invalid modify parameters'));
  }
  const next = fake.book.update(order.orderId, { quantity, price, triggerPrice: trigger });
  send(res, { status: 200, json: { orderId: next.orderId, orderStatus: next.orderStatus } });
  fake.sockets.pushOrder(clientId, next);
}

function place(
  fake: DhanFake,
  clientId: string,
  body: Record<string, unknown>,
  res: ServerResponse,
  fault: BrokerFault | undefined,
): void {
  const field = (name: string): string => String(body[name] ?? '');
  const instrument = fake.instrument(field('securityId'));
  const orderType = field('orderType');
  const side = field('transactionType');
  const quantity = Number(body.quantity);
  const price = Number(body.price ?? 0);
  const trigger = Number(body.triggerPrice ?? 0);
  const tag = field('correlationId');
  if (field('dhanClientId') !== clientId)
    return send(res, INPUT('dhanClientId does not match the access token'));
  if (field('exchangeSegment') !== 'NSE_FNO' || !instrument) return send(res, INPUT('Invalid securityId'));
  if (orderType === 'MARKET' || orderType === 'STOP_LOSS_MARKET' || field('validity') !== 'DAY') {
    return send(res, ORDER_ERROR('Market and IOC orders are not allowed for API orders without protection'));
  }
  if (orderType !== 'LIMIT' && orderType !== 'STOP_LOSS') return send(res, INPUT('Invalid orderType'));
  if (side !== 'BUY' && side !== 'SELL') return send(res, INPUT('Invalid transactionType'));
  if (!['INTRADAY', 'MARGIN'].includes(field('productType'))) return send(res, INPUT('Invalid productType'));
  if (
    !Number.isInteger(quantity) ||
    quantity <= 0 ||
    quantity % instrument.lotSize !== 0 ||
    quantity > FAKE_FREEZE_QTY
  ) {
    return send(res, ORDER_ERROR('Invalid quantity'));
  }
  if (!(price > 0) || !onTick(price) || (orderType === 'STOP_LOSS' && (!(trigger > 0) || !onTick(trigger)))) {
    return send(res, ORDER_ERROR('Invalid price'));
  }
  if (tag.length > 25 || !/^[A-Za-z0-9 _-]*$/.test(tag)) return send(res, INPUT('Invalid correlationId'));
  const order = fake.book.add({
    dhanClientId: clientId,
    correlationId: tag,
    transactionType: side,
    exchangeSegment: 'NSE_FNO',
    productType: field('productType'),
    orderType,
    validity: 'DAY',
    tradingSymbol: instrument.tradingSymbol,
    securityId: instrument.securityId,
    quantity,
    price,
    triggerPrice: orderType === 'STOP_LOSS' ? trigger : 0,
  });
  const answer = (): void =>
    send(res, { status: 200, json: { orderId: order.orderId, orderStatus: 'PENDING' } });
  if (fault === 'timeout_placed') return fake.faults.hold(answer);
  answer();
  fake.sockets.pushOrder(clientId, order);
  if (fake.autoFillPrice !== undefined && fault === undefined && orderType === 'LIMIT')
    void fake.fill(order.orderId, price);
  if (fault === 'partial_fill') {
    // Half the lots (at least one) fill at once; the rest stays open.
    const filled = Math.max(1, Math.floor(quantity / instrument.lotSize / 2)) * instrument.lotSize;
    void fake.fill(order.orderId, price, filled);
  }
}
