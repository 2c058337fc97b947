import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrokerError } from '@optionpilot/engine';
import type { Broker, BrokerOrderSnapshot, OrderRequest } from '@optionpilot/engine';
import { startFakeUpstox } from '../../../../test/fakes/upstox/server';
import type { FakeUpstox } from '../../../../test/fakes/upstox/server';
import type { BrokerModule } from '../types';
import { upstoxModule } from './index';
import { createInstrumentIndex } from './instruments';
import { createUpstoxBroker } from './orders';

const CE = 'NIFTY01DEC2624000CE';

let fake: FakeUpstox;
let module: BrokerModule;
let broker: Broker;

/** The adapter built directly (not through the module), to set its polling and reconnect timings. */
function directBroker(overrides: Partial<Parameters<typeof createUpstoxBroker>[0]>) {
  return createUpstoxBroker({
    apiRoot: fake.url,
    ordersRoot: fake.ordersUrl,
    accessToken: fake.issueToken(),
    algoTag: 'OPTIONPILOT',
    instruments: () => module.fetchInstruments().then(createInstrumentIndex),
    now: Date.now,
    ...overrides,
  });
}

function request(overrides: Partial<OrderRequest> = {}): OrderRequest {
  return {
    clientOrderId: 'OP-mis0a1b2-001-x7k',
    symbol: CE,
    side: 'BUY',
    type: 'LIMIT',
    quantity: 65,
    price: 120.5,
    product: 'MIS',
    tag: 'OPTIONPILOT',
    ...overrides,
  };
}

async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof BrokerError ? `${error.kind}/${error.code}` : `other: ${String(error)}`;
  }
}

beforeEach(async () => {
  fake = await startFakeUpstox();
  module = upstoxModule({
    endpoints: fake.endpoints,
    algoTag: 'OPTIONPILOT',
    now: Date.now,
  });
  const session = fake.session();
  broker = module.createBroker({ credentials: { apiKey: fake.apiKey, apiSecret: fake.apiSecret }, session });
});

afterEach(async () => {
  await fake.close();
});

describe('placing', () => {
  it('sends a v3 order to the orders host with the instrument key, the product and a tag carrying both ids', async () => {
    const { brokerOrderId } = await broker.placeOrder(request());
    const order = fake.order(brokerOrderId)?.current;
    expect(order?.instrument_token).toMatch(/^NSE_FO\|/);
    expect(order?.trading_symbol).toBe('NIFTY 24000 CE 01 DEC 26');
    expect(order).toMatchObject({
      product: 'I',
      order_type: 'LIMIT',
      price: 120.5,
      quantity: 65,
      transaction_type: 'BUY',
    });
    expect(order?.tag).toBe('OPTIONPILOT-OPmis0a1b2001x7k');
    expect(order?.tag?.length).toBeLessThanOrEqual(40);
    const placed = fake.requests.find((r) => r.path === '/v3/order/place');
    expect(placed?.host).toBe('orders');
    expect(JSON.parse(placed?.body ?? '{}')).toMatchObject({ slice: false, validity: 'DAY', is_amo: false });
  });

  it('never sends an unprotected MARKET or SL-M order', async () => {
    expect(await kindOf(broker.placeOrder(request({ type: 'MARKET', price: undefined })))).toBe(
      'rejected/UNPROTECTED',
    );
    expect(
      await kindOf(broker.placeOrder(request({ type: 'SL-M', price: undefined, triggerPrice: 100 }))),
    ).toBe('rejected/UNPROTECTED');
    expect(fake.requests.some((r) => r.path === '/v3/order/place')).toBe(false);
  });

  it('refuses a symbol Upstox does not list without calling the orders API', async () => {
    expect(await kindOf(broker.placeOrder(request({ symbol: 'NIFTY01DEC2630000CE' })))).toBe(
      'rejected/UNKNOWN_INSTRUMENT',
    );
    expect(fake.requests.some((r) => r.host === 'orders')).toBe(false);
  });

  it('refuses (not placed) when the instrument master cannot be loaded', async () => {
    const blind = directBroker({ instruments: () => Promise.reject(new Error('master unavailable')) });
    expect(await kindOf(blind.placeOrder(request()))).toBe('rejected/NO_INSTRUMENT_MASTER');
    expect(fake.requests.some((r) => r.host === 'orders')).toBe(false);
  });

  it('maps every injected failure by its Upstox code', async () => {
    const cases: Array<[Parameters<FakeUpstox['failNext']>[0], string]> = [
      ['rate_limited', 'rate_limited/UDAPI10005'],
      ['server_error', 'network/UDAPI100500'],
      ['token_expired', 'auth_expired/UDAPI100050'],
      ['ip_not_allowed', 'ip_not_allowed/UDAPI1154'],
      ['market_blocked', 'rejected/UDAPI1158'],
    ];
    for (const [fault, expected] of cases) {
      fake.failNext(fault);
      expect(await kindOf(broker.placeOrder(request())), fault).toBe(expected);
    }
    expect(fake.book.orders.size).toBe(0);
  });

  it('reports an expired session as auth_expired on every call', async () => {
    fake.expireTokens();
    expect(await kindOf(broker.placeOrder(request()))).toBe('auth_expired/UDAPI100050');
    expect(await kindOf(broker.getPositions())).toBe('auth_expired/UDAPI100050');
  });

  it('reports a dead host as a network failure (outcome unknown)', async () => {
    await broker.getPositions(); // the master is loaded; only the order call meets the dead host
    await fake.close();
    expect(await kindOf(broker.placeOrder(request()))).toMatch(/^network\//);
    fake = await startFakeUpstox(); // for afterEach
  });
});

describe('status', () => {
  it('reads fills, partial fills and rejections by order id and by client order id', async () => {
    const { brokerOrderId } = await broker.placeOrder(request());
    expect(await broker.getOrder({ brokerOrderId })).toMatchObject({ status: 'ACCEPTED', filledQty: 0 });
    fake.fill(brokerOrderId, 30, 120);
    expect(await broker.getOrder({ brokerOrderId })).toMatchObject({
      status: 'PARTIALLY_FILLED',
      filledQty: 30,
      avgPrice: 120,
    });
    fake.fill(brokerOrderId, undefined, 121);
    const done = await broker.getOrder({ clientOrderId: 'OP-mis0a1b2-001-x7k' });
    expect(done).toMatchObject({
      status: 'FILLED',
      filledQty: 65,
      brokerOrderId,
      clientOrderId: 'OP-mis0a1b2-001-x7k',
    });
    expect(done?.avgPrice).toBeCloseTo((30 * 120 + 35 * 121) / 65, 2);

    fake.rejectNext('Insufficient funds');
    const rejected = await broker.placeOrder(request({ clientOrderId: 'OP-mis0a1b2-002-aaa' }));
    expect(await broker.getOrder(rejected)).toMatchObject({
      status: 'REJECTED',
      reason: 'Insufficient funds',
    });
  });

  it('answers undefined for orders Upstox does not know', async () => {
    expect(await broker.getOrder({ brokerOrderId: '999' })).toBeUndefined();
    expect(await broker.getOrder({ clientOrderId: 'OP-mis0a1b2-009-zzz' })).toBeUndefined();
  });

  it('finds an order whose placement answer was lost, by its tag, without placing it twice', async () => {
    fake.failNext('timeout_placed');
    const placing = broker.placeOrder(request({ clientOrderId: 'OP-mis0a1b2-003-bbb' }));
    placing.catch(() => undefined);
    await expect.poll(() => fake.book.orders.size).toBe(1);
    const found = await broker.getOrder({ clientOrderId: 'OP-mis0a1b2-003-bbb' });
    expect(found).toMatchObject({ status: 'ACCEPTED', clientOrderId: 'OP-mis0a1b2-003-bbb' });
    expect(fake.requests.filter((r) => r.path === '/v3/order/place')).toHaveLength(1);
  });
});

describe('modify and cancel', () => {
  it('modifies the price of a working order and keeps its type and quantity', async () => {
    const { brokerOrderId } = await broker.placeOrder(
      request({ type: 'SL', price: 99, triggerPrice: 100, side: 'SELL' }),
    );
    await broker.modifyOrder(brokerOrderId, { triggerPrice: 105, price: 104 });
    expect(fake.order(brokerOrderId)?.current).toMatchObject({
      order_type: 'SL',
      trigger_price: 105,
      price: 104,
      quantity: 65,
    });
    expect(fake.requests.find((r) => r.path === '/v3/order/modify')?.host).toBe('orders');
  });

  it('modifies an order placed by an earlier process by reading it first', async () => {
    const { brokerOrderId } = await broker.placeOrder(
      request({ type: 'SL', price: 99, triggerPrice: 100, side: 'SELL' }),
    );
    const session = fake.session();
    const restarted = module.createBroker({
      credentials: { apiKey: fake.apiKey, apiSecret: fake.apiSecret },
      session,
    });
    await restarted.modifyOrder(brokerOrderId, { triggerPrice: 102 });
    // It also finds the order by the client order id alone: the tag is rebuilt, not remembered.
    expect(await restarted.getOrder({ clientOrderId: 'OP-mis0a1b2-001-x7k' })).toMatchObject({
      brokerOrderId,
    });
    expect(fake.order(brokerOrderId)?.current).toMatchObject({
      order_type: 'SL',
      trigger_price: 102,
      price: 99,
    });
  });

  it('cancels a working order and refuses to cancel a filled one', async () => {
    const first = await broker.placeOrder(request());
    await broker.cancelOrder(first.brokerOrderId);
    expect(await broker.getOrder(first)).toMatchObject({ status: 'CANCELLED' });
    const second = await broker.placeOrder(request({ clientOrderId: 'OP-mis0a1b2-004-ccc' }));
    fake.fill(second.brokerOrderId);
    expect(await kindOf(broker.cancelOrder(second.brokerOrderId))).toBe('rejected/UDAPI100040');
  });

  it('maps a refused IP on cancel', async () => {
    const { brokerOrderId } = await broker.placeOrder(request());
    fake.failNext('ip_not_allowed');
    expect(await kindOf(broker.cancelOrder(brokerOrderId))).toBe('ip_not_allowed/UDAPI1154');
  });
});

describe('positions', () => {
  it('reports net positions under canonical symbols', async () => {
    const buy = await broker.placeOrder(request({ quantity: 130 }));
    fake.fill(buy.brokerOrderId, 130, 100);
    const sell = await broker.placeOrder(
      request({ clientOrderId: 'OP-mis0a1b2-005-ddd', side: 'SELL', price: 110 }),
    );
    fake.fill(sell.brokerOrderId, 65, 110);
    expect(await broker.getPositions()).toEqual([
      { symbol: CE, quantity: 65, avgPrice: 100, realisedPnl: 650 },
    ]);
  });
});

describe('order updates', () => {
  it('pushes every transition from the portfolio stream with the client order id', async () => {
    const updates: BrokerOrderSnapshot[] = [];
    const subscription = broker.orderUpdates$.subscribe((s) => updates.push(s));
    await expect.poll(() => fake.sockets.portfolioConnections).toBe(1);
    const { brokerOrderId } = await broker.placeOrder(request());
    fake.fill(brokerOrderId, 65, 120.5);
    await expect.poll(() => updates.at(-1)?.status).toBe('FILLED');
    subscription.unsubscribe();
    expect(
      updates.every((u) => u.clientOrderId === 'OP-mis0a1b2-001-x7k' && u.brokerOrderId === brokerOrderId),
    ).toBe(true);
    expect(updates.map((u) => u.status)).toEqual(['ACCEPTED', 'FILLED']);
    expect(updates.at(-1)).toMatchObject({ filledQty: 65, avgPrice: 120.5 });
  });

  it('polls the order book while the stream is down', async () => {
    const direct = directBroker({
      pollIntervalMs: 50,
      // Far beyond the test: only polling can deliver the fill.
      reconnectBackoffMs: [60_000],
    });
    const updates: BrokerOrderSnapshot[] = [];
    const subscription = direct.orderUpdates$.subscribe((s) => updates.push(s));
    await expect.poll(() => fake.sockets.portfolioConnections).toBe(1);
    const { brokerOrderId } = await direct.placeOrder(request());
    fake.sockets.dropAll();
    await expect.poll(() => fake.sockets.portfolioConnections).toBe(0);
    fake.fill(brokerOrderId);
    await expect.poll(() => updates.at(-1)?.status).toBe('FILLED');
    expect(updates.at(-1)).toMatchObject({
      brokerOrderId,
      filledQty: 65,
      clientOrderId: 'OP-mis0a1b2-001-x7k',
    });
    expect(fake.sockets.portfolioConnections).toBe(0);
    subscription.unsubscribe();
  });

  it('stops polling once the session has ended', async () => {
    const direct = directBroker({
      pollIntervalMs: 20,
      reconnectBackoffMs: [60_000],
    });
    const subscription = direct.orderUpdates$.subscribe();
    await expect.poll(() => fake.sockets.portfolioConnections).toBe(1);
    fake.sockets.dropAll();
    const polls = () => fake.requests.filter((r) => r.path === '/v2/order/retrieve-all').length;
    const before = polls();
    await expect.poll(polls).toBeGreaterThan(before + 1);
    fake.expireTokens();
    const refused = polls() + 1;
    await expect.poll(polls).toBeGreaterThanOrEqual(refused);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(polls()).toBeLessThanOrEqual(refused + 1);
    subscription.unsubscribe();
  });

  it('reconnects on a fresh authorized URI and catches up on what changed meanwhile', async () => {
    const updates: BrokerOrderSnapshot[] = [];
    const subscription = broker.orderUpdates$.subscribe((s) => updates.push(s));
    await expect.poll(() => fake.sockets.portfolioConnections).toBe(1);
    const { brokerOrderId } = await broker.placeOrder(request());
    fake.sockets.dropAll();
    await expect.poll(() => fake.sockets.portfolioConnections).toBe(0);
    fake.fill(brokerOrderId);
    await expect.poll(() => fake.sockets.portfolioConnections, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => updates.at(-1)?.status).toBe('FILLED');
    expect(fake.sockets.authorizations.portfolio).toBe(2);
    subscription.unsubscribe();
  });
});
