// The fake's order writes: placeOrder, modifyOrder and cancelOrder with Angel's checks (no MARKET or IOC from
// APIs, variety NORMAL + LIMIT or STOPLOSS + STOPLOSS_LIMIT, whole lots, the freeze quantity, prices on the tick,
// ordertag under 20 characters, symboltoken from the scrip master; a modify repeats the whole order) and the
// injected faults.
import type { ServerResponse } from 'node:http';
import type { BrokerFault } from '../../brokers/conformance';
import { envelope, failure, gateway, INVALID_TOKEN, send, type Reply } from './replies';
import type { AngelFake } from './server';

export type OrderRoute = 'place' | 'modify' | 'cancel';

/** NIFTY options' exchange freeze quantity (DOMAIN.md §1). */
export const FAKE_FREEZE_QTY = 1_800;

const FAULT_REPLIES: Readonly<Partial<Record<BrokerFault, Reply>>> = {
  reject: failure(200, 'AB2020', 'Insufficient Funds'),
  rate_limit: { status: 403, text: 'Access denied because of exceeding access rate' },
  server_error: failure(500, 'AB2001', 'Internal Error, Please try after sometime'),
  token_expired: INVALID_TOKEN,
  ip_not_allowed: gateway(
    403,
    'AG7002',
    'Access denied: Unregistered IP address. Register your IP before retrying.',
  ),
};

const onTick = (v: number): boolean => Math.abs(Math.round(v * 20) - v * 20) < 1e-6;

export function handleOrderWrite(
  fake: AngelFake,
  route: OrderRoute,
  clientCode: string,
  body: Record<string, unknown>,
  res: ServerResponse,
): void {
  fake.orderRequests.record(route, clientCode);
  const fault = fake.faults.take(route);
  const refusal = fault === undefined ? undefined : FAULT_REPLIES[fault];
  if (refusal !== undefined) return send(res, refusal);
  if (route === 'place') return place(fake, clientCode, body, res, fault);
  const found = fake.book.get(String(body.orderid ?? ''));
  if (!found || found.clientCode !== clientCode) return send(res, failure(200, 'AB1013', 'Order not found'));
  const { order } = found;
  if (String(body.variety ?? '') !== order.variety)
    return send(res, failure(200, 'AB1008', 'Invalid Order Variety'));
  if (!['open', 'trigger pending'].includes(order.status)) {
    return send(res, failure(200, 'AB1007', `Order cannot be modified or cancelled: it is ${order.status}`));
  }
  if (route === 'cancel') {
    const next = fake.book.update(order.orderid, { status: 'cancelled', text: 'Cancelled by user' });
    send(res, {
      status: 200,
      json: envelope({ orderid: next.orderid, uniqueorderid: next.uniqueorderid }),
    });
    fake.sockets.pushOrder(clientCode, next);
    return;
  }
  const quantity = Number(body.quantity ?? order.quantity);
  const price = Number(body.price ?? order.price);
  const trigger = Number(body.triggerprice ?? order.triggerprice);
  if (
    body.tradingsymbol !== order.tradingsymbol ||
    body.symboltoken !== order.symboltoken ||
    body.ordertype !== order.ordertype ||
    body.producttype !== order.producttype ||
    body.exchange !== 'NFO' ||
    !Number.isInteger(quantity) ||
    quantity % fake.lotSize !== 0 ||
    !(price > 0)
  ) {
    return send(res, failure(200, 'AB1007', 'Invalid modify parameters'));
  }
  const next = fake.book.update(order.orderid, { quantity, price, triggerprice: trigger });
  send(res, { status: 200, json: envelope({ orderid: next.orderid, uniqueorderid: next.uniqueorderid }) });
  fake.sockets.pushOrder(clientCode, next);
}

function place(
  fake: AngelFake,
  clientCode: string,
  body: Record<string, unknown>,
  res: ServerResponse,
  fault: BrokerFault | undefined,
): void {
  const field = (name: string): string => String(body[name] ?? '');
  const instrument = fake.instrument(field('symboltoken'));
  const variety = field('variety');
  const ordertype = field('ordertype');
  const side = field('transactiontype');
  const quantity = Number(field('quantity'));
  const price = Number(field('price') || '0');
  const trigger = Number(field('triggerprice') || '0');
  const tag = field('ordertag');
  if (field('exchange') !== 'NFO' || !instrument || instrument.tradingSymbol !== field('tradingsymbol')) {
    return send(res, failure(200, 'AB1009', 'Symbol Not Found'));
  }
  if (ordertype === 'MARKET' || ordertype === 'STOPLOSS_MARKET' || field('duration') !== 'DAY') {
    // Since 1 Apr 2026: no market or IOC orders from APIs.
    return send(res, failure(200, 'AB1007', 'Market and IOC orders are not allowed for API orders'));
  }
  if (!(
    (variety === 'NORMAL' && ordertype === 'LIMIT') ||
    (variety === 'STOPLOSS' && ordertype === 'STOPLOSS_LIMIT')
  )) {
    return send(res, failure(200, 'AB1008', 'Invalid Order Variety'));
  }
  if (side !== 'BUY' && side !== 'SELL') return send(res, failure(200, 'AB1007', 'Invalid transactiontype'));
  if (!['INTRADAY', 'CARRYFORWARD'].includes(field('producttype')))
    return send(res, failure(200, 'AB1012', 'Invalid Product Type'));
  if (
    !Number.isInteger(quantity) ||
    quantity <= 0 ||
    quantity % instrument.lotSize !== 0 ||
    quantity > FAKE_FREEZE_QTY
  ) {
    return send(res, failure(200, 'AB1007', 'Invalid quantity'));
  }
  if (!(price > 0) || !onTick(price) || (variety === 'STOPLOSS' && (!(trigger > 0) || !onTick(trigger)))) {
    return send(res, failure(200, 'AB1007', 'Invalid price'));
  }
  if (tag.length >= 20 || !/^[A-Za-z0-9]*$/.test(tag)) {
    return send(res, failure(200, 'AB4008', 'ordertag length should be less than 20 characters'));
  }
  const order = fake.book.add(clientCode, {
    variety,
    ordertype,
    producttype: field('producttype'),
    duration: 'DAY',
    transactiontype: side,
    exchange: 'NFO',
    tradingsymbol: instrument.tradingSymbol,
    symboltoken: instrument.token,
    quantity,
    price,
    triggerprice: variety === 'STOPLOSS' ? trigger : 0,
    ordertag: tag,
  });
  const answer = (): void =>
    send(res, {
      status: 200,
      json: envelope({
        script: instrument.tradingSymbol,
        orderid: order.orderid,
        uniqueorderid: order.uniqueorderid,
      }),
    });
  if (fault === 'timeout_placed') return fake.faults.hold(answer);
  answer();
  fake.sockets.pushOrder(clientCode, order);
  // A stop rests (trigger pending) until the test fills it, as at the exchange until its trigger is crossed.
  if (fake.autoFillPrice !== undefined && fault === undefined && variety === 'NORMAL') {
    void fake.fill(order.orderid, price);
  }
  if (fault === 'partial_fill') {
    // Half the lots (at least one) fill at once; the rest stays open.
    const filled = Math.max(1, Math.floor(quantity / instrument.lotSize / 2)) * instrument.lotSize;
    void fake.fill(order.orderid, price, filled);
  }
}
