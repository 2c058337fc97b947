// Groww against the Groww fake: the conformance suite, with the account logged in through the daily form login
// (TOTP flow) and order updates pushed on Groww's socket (the fake's NATS endpoint), the order list polled while it is
// down.
import { startGrowwFake, type GrowwFake } from '../fakes/groww/server';
import { GROWW_ACCOUNT, growwFormLogin, growwModuleAt } from './growwHarness';
import {
  brokerConformance,
  CONFORMANCE_REQUEST_TIMEOUT_MS,
  startedLikeTheRuntime,
  type ConformanceFake,
  type ConformanceSubject,
  type FakeOrderView,
} from './conformance';

function control(fake: GrowwFake): ConformanceFake {
  return {
    inject: (fault, times) => fake.inject(fault, times),
    fill: (id, price, quantity) => fake.fill(id, price, quantity),
    orders: (): FakeOrderView[] =>
      fake.book.all().map((o) => ({
        brokerOrderId: o.groww_order_id,
        tag: o.order_reference_id,
        side: o.transaction_type,
        type: o.order_type,
        quantity: o.quantity,
        price: o.price,
        triggerPrice: o.trigger_price,
        // The fake takes only LIMIT and SL (stop-limit) orders from APIs: an order it holds went out with a price.
        protected: (o.order_type === 'LIMIT' || o.order_type === 'SL') && o.price > 0,
      })),
    orderRequestTimes: () => fake.orderRequests.times,
    placeRequests: () => fake.orderRequests.placements,
  };
}

brokerConformance({
  name: 'groww',
  symbol: 'NIFTY01DEC2624000CE',
  lotSize: 65,
  ltp: 120,
  async setup(): Promise<ConformanceSubject> {
    const fake = await startGrowwFake({
      accounts: [GROWW_ACCOUNT],
      timeoutDelayMs: 2 * CONFORMANCE_REQUEST_TIMEOUT_MS,
    });
    const module = growwModuleAt(fake, { pollIntervalMs: 3_000, backoffMs: [100] });
    const { credentials, session } = await growwFormLogin(module);
    const broker = module.createBroker({ credentials, session });
    // As the runtime does at start: the instrument master is loaded and the order socket is up (its first order-list
    // read done) before the first order, so no fault injected by a case is spent on start-up calls.
    // The order-list read that follows the socket coming up may come a moment after the sign-in (or be skipped when
    // the start-up read is still in flight), so the cases start once the socket is signed in, a read has been made
    // and the fake has then seen no request for 300 ms: no case's injected fault is spent on a start-up read.
    let count = -1;
    let quietSince = Date.now();
    return startedLikeTheRuntime({
      broker,
      fake: control(fake),
      ready: () => {
        if (fake.requests.length !== count) {
          count = fake.requests.length;
          quietSince = Date.now();
        }
        const read = fake.requests.some((r) => r.path === '/v1/order/list');
        return fake.socket.connections > 0 && read && Date.now() - quietSince >= 300;
      },
      closeFake: () => fake.close(),
    });
  },
});
