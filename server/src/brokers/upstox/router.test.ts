// The adapter under the engine's own OrderRouter, against the fake: what the router relies on a broker for.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asyncScheduler } from 'rxjs';
import { InMemoryOrderStore, OrderRouter } from '@optionpilot/engine';
import type { OrderIntent, Quote } from '@optionpilot/engine';
import { startFakeUpstox } from '../../../../test/fakes/upstox/server';
import type { FakeUpstox } from '../../../../test/fakes/upstox/server';
import { upstoxModule } from './index';

const CE = 'NIFTY01DEC2624000CE';

let fake: FakeUpstox;
let store: InMemoryOrderStore;
let router: OrderRouter;

beforeEach(async () => {
  fake = await startFakeUpstox();
  const module = upstoxModule({
    endpoints: fake.endpoints,
    algoTag: 'OPTIONPILOT',
    now: Date.now,
  });
  const session = fake.session();
  const broker = module.createBroker({
    credentials: { apiKey: fake.apiKey, apiSecret: fake.apiSecret },
    session,
  });
  store = new InMemoryOrderStore();
  const quote: Quote = { symbol: CE, time: Date.now(), bid: 119.9, ask: 120.1, ltp: 120 };
  router = new OrderRouter({
    scheduler: asyncScheduler,
    store,
    quotes: { getQuote: (symbol) => (symbol === CE ? quote : undefined) },
    tag: 'OPTIONPILOT',
    lotSize: () => 65,
    requestTimeoutMs: 400,
    resolveBackoffMs: [100, 200, 400],
  });
  router.addAccount({ accountId: 'acc-1', broker });
  // The instrument master is loaded (as the runtime does at start) before any order.
  await broker.getPositions();
});

afterEach(async () => {
  router.stop();
  await fake.close();
});

/** A signal's MARKET entry for the account, as the runtime's entry desk submits it. */
const entry = (signalId: string, quantity: number): OrderIntent => ({
  purpose: 'entry',
  signalId,
  accountId: 'acc-1',
  symbol: CE,
  side: 'BUY',
  quantity,
  type: 'MARKET',
});

describe('upstox adapter under the order router', () => {
  it('sends a MARKET entry as a protected LIMIT and follows it to FILLED from the broker', async () => {
    router.start();
    const result = await router.submit(entry('sig-1', 65));
    const order = result?.orders[0];
    expect(order?.state).toBe('ACCEPTED');
    const wire = fake.order(order?.brokerOrderId ?? '')?.current;
    // 2% band above ₹100, snapped down to the tick: 120 × 1.02 = 122.40.
    expect(wire).toMatchObject({ order_type: 'LIMIT', price: 122.4 });
    fake.fill(wire?.order_id ?? '', 65, 120.35);
    await expect.poll(() => router.getOrder(order?.clientOrderId ?? '')?.state).toBe('FILLED');
    expect(router.getOrder(order?.clientOrderId ?? '')).toMatchObject({ filledQty: 65, avgPrice: 120.35 });
  });

  it('sends an SL-M stop as a stop-limit through the trigger (a stop resting at the broker)', async () => {
    const result = await router.submit({
      purpose: 'stop',
      positionId: '7',
      sequence: 1,
      accountId: 'acc-1',
      symbol: CE,
      side: 'SELL',
      quantity: 65,
      type: 'SL-M',
      triggerPrice: 100,
    });
    expect(result.status).toBe('placed');
    const wire = fake.order(result.orders[0]?.brokerOrderId ?? '')?.current;
    // 2% band below ₹100: a SELL limit at 98.00 under the 100 trigger; Upstox holds it as trigger pending.
    expect(wire).toMatchObject({
      order_type: 'SL',
      trigger_price: 100,
      price: 98,
      status: 'trigger pending',
    });
  });

  it('resolves a timed-out placement by asking Upstox for the tag, never placing it twice', async () => {
    // Not following the portfolio stream: only a status query can resolve the order.
    fake.failNext('timeout_placed');
    const result = await router.submit(entry('sig-2', 65));
    expect(result?.status).toBe('unknown');
    const id = result?.orders[0]?.clientOrderId ?? '';
    await expect.poll(() => router.getOrder(id)?.state).toBe('ACCEPTED');
    expect(fake.requests.filter((r) => r.path === '/v3/order/place')).toHaveLength(1);
    expect(fake.requests.some((r) => r.path === '/v2/order/history' && r.query.startsWith('?tag='))).toBe(
      true,
    );
    expect(router.getOrder(id)?.brokerOrderId).toBe([...fake.book.orders.keys()][0]);
  });

  it('splits above the freeze quantity into whole-lot orders, each with its own tag', async () => {
    const result = await router.submit(entry('sig-3', 65 * 30));
    expect(result?.orders.map((o) => o.quantity)).toEqual([1755, 195]);
    const tags = [...fake.book.orders.values()].map((o) => o.current.tag);
    expect(new Set(tags).size).toBe(2);
    expect([...fake.book.orders.values()].map((o) => o.current.quantity).sort()).toEqual([1755, 195]);
  });

  it('holds the order rate under Upstox limit of 10 per second', async () => {
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        router.submit({
          purpose: 'exit',
          positionId: String(i),
          sequence: 1,
          accountId: 'acc-1',
          symbol: CE,
          side: 'SELL',
          quantity: 65,
          type: 'LIMIT',
          price: 130,
        }),
      ),
    );
    expect(results.every((r) => r.status === 'placed')).toBe(true);
    expect(fake.book.orders.size).toBe(14);
    expect(fake.rateLimited).toBe(0);
  });
});
