import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerOrderSnapshot, OrderRequest } from '@optionpilot/engine';
import { TEST_KITE_APP } from '../../../../test/fakes/kite/fixtures';
import { startKiteFake, type KiteFake } from '../../../../test/fakes/kite/server';
import type { KiteBroker } from './broker';
import { zerodhaModule } from './index';

const app = TEST_KITE_APP;

const request: OrderRequest = {
  clientOrderId: 'OP-mhx0z2k1-001-abc',
  symbol: 'NIFTY01DEC2624000CE',
  side: 'BUY',
  type: 'MARKET',
  quantity: 65,
  product: 'MIS',
  tag: 'OPALGO',
};

async function until(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('timed out');
}

describe('KiteBroker', () => {
  let fake: KiteFake;
  let broker: KiteBroker;

  beforeEach(async () => {
    // No postback URL: the adapter must learn of fills by polling the order book.
    fake = await startKiteFake({ apps: [app] });
    const module = zerodhaModule(
      {
        endpoints: { apiRoot: fake.url, loginUrl: `${fake.url}/connect/login`, wsRoot: fake.wsUrl },
        algoTag: 'OPALGO',
        now: () => Date.now(),
      },
      { pollIntervalMs: 50 },
    );
    const session = {
      accessToken: fake.issueSession(app.apiKey),
      expiresAt: 0,
      accountId: 'AB1234',
      accountName: '',
    };
    broker = module.createBroker({ credentials: app, session }) as KiteBroker;
  });
  afterEach(() => fake.close());

  it('prepares for an order by opening its connection with a read and loading the instrument master', async () => {
    await broker.prepare();
    expect(fake.requestCount('/portfolio/positions')).toBe(1);
    expect(fake.requestCount('/instruments/NFO')).toBe(1);
    // The order then needs neither again.
    await broker.placeOrder(request);
    expect(fake.requestCount('/instruments/NFO')).toBe(1);
  });

  it('sends a raw MARKET order with market_protection -1, and ALGO_TAG before the client id in the 20-character tag', async () => {
    const { brokerOrderId } = await broker.placeOrder(request);
    const [order] = fake.book.all();
    expect(order).toMatchObject({
      order_id: brokerOrderId,
      tradingsymbol: 'NIFTY26D0124000CE',
      order_type: 'MARKET',
      market_protection: -1,
      // The first 4 characters of ALGO_TAG, then the client order id's 16: Kite's alphanumeric 20.
      tag: 'OPALOPmhx0z2k1001abc',
      product: 'MIS',
    });
  });

  it('sends SL with both prices, and refuses a symbol the master does not list before calling Kite', async () => {
    await broker.placeOrder({ ...request, side: 'SELL', type: 'SL', price: 95, triggerPrice: 96 });
    expect(fake.book.all()[0]).toMatchObject({
      order_type: 'SL',
      price: 95,
      trigger_price: 96,
      market_protection: 0,
    });
    await expect(broker.placeOrder({ ...request, symbol: 'NIFTY01DEC2699999CE' })).rejects.toMatchObject({
      kind: 'rejected',
      code: 'UNKNOWN_INSTRUMENT',
    });
    expect(fake.orderRequests.placements).toBe(1);
  });

  it('polls the order book for its open orders when no postback comes, emitting each change once', async () => {
    const seen: BrokerOrderSnapshot[] = [];
    const subscription = broker.orderUpdates$.subscribe((s) => seen.push(s));
    const changes = () => seen.filter((s) => s.status !== 'ACCEPTED').map((s) => [s.status, s.filledQty]);
    try {
      const { brokerOrderId } = await broker.placeOrder({
        ...request,
        type: 'LIMIT',
        price: 120,
        quantity: 130,
      });
      await fake.fill(brokerOrderId, 120, 65);
      await until(() => changes().length === 1);
      await fake.fill(brokerOrderId, 121);
      await until(() => changes().length === 2);
      // An order still open keeps the polls going; they see the FILLED order again and emit nothing more.
      await broker.placeOrder({
        ...request,
        clientOrderId: 'OP-mhx0z2k1-002-abc',
        type: 'LIMIT',
        price: 100,
      });
      const polls = fake.requestCount('/orders');
      await until(() => fake.requestCount('/orders') >= polls + 2);
      expect(changes()).toEqual([
        ['PARTIALLY_FILLED', 65],
        ['FILLED', 130],
      ]);
      expect(seen.at(-1)?.avgPrice).toBeCloseTo(120.5, 2);
      expect(seen.at(-1)?.clientOrderId).toBe(request.clientOrderId);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('answers status queries by broker id (history) and says undefined for an order Kite does not know', async () => {
    const { brokerOrderId } = await broker.placeOrder({ ...request, type: 'LIMIT', price: 120 });
    expect(await broker.getOrder({ brokerOrderId })).toMatchObject({ status: 'ACCEPTED', filledQty: 0 });
    expect(await broker.getOrder({ brokerOrderId: '999' })).toBeUndefined();
    expect(await broker.getOrder({ clientOrderId: 'OP-mhx0z2k1-002-abc' })).toBeUndefined();
  });

  it('reports positions under canonical symbols', async () => {
    const { brokerOrderId } = await broker.placeOrder({ ...request, type: 'LIMIT', price: 120 });
    await fake.fill(brokerOrderId, 119.5);
    expect(await broker.getPositions()).toEqual([
      { symbol: 'NIFTY01DEC2624000CE', quantity: 65, avgPrice: 119.5, realisedPnl: 0 },
    ]);
  });
});
