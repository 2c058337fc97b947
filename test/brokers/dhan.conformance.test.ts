// Dhan v2 against the Dhan fake: the conformance suite, with the account logged in through the consent flow and
// order updates delivered over the fake's order update WebSocket (the order book is polled only while it is down).
import { startDhanFake, type DhanFake } from '../fakes/dhan/server';
import { DHAN_ACCOUNT, dhanConsentLogin, dhanModuleAt } from './dhanHarness';
import {
  brokerConformance,
  CONFORMANCE_REQUEST_TIMEOUT_MS,
  startedLikeTheRuntime,
  type ConformanceFake,
  type ConformanceSubject,
  type FakeOrderView,
} from './conformance';

function control(fake: DhanFake): ConformanceFake {
  return {
    inject: (fault, times, on) => fake.inject(fault, times, on),
    fill: (id, price, quantity) => fake.fill(id, price, quantity),
    orders: (): FakeOrderView[] =>
      fake.book.all().map((o) => ({
        brokerOrderId: o.orderId,
        tag: o.correlationId,
        side: o.transactionType,
        type: o.orderType,
        quantity: o.quantity,
        price: o.price,
        triggerPrice: o.triggerPrice,
        // Dhan takes limit and stop-limit orders from OptionPilot: an order it holds went out with a limit price.
        protected: (o.orderType === 'LIMIT' || o.orderType === 'STOP_LOSS') && o.price > 0,
      })),
    orderRequestTimes: () => fake.orderRequests.times,
    placeRequests: () => fake.orderRequests.placements,
  };
}

brokerConformance({
  name: 'dhan',
  symbol: 'NIFTY01DEC2624000CE',
  lotSize: 65,
  ltp: 120,
  async setup(): Promise<ConformanceSubject> {
    const fake = await startDhanFake({
      accounts: [DHAN_ACCOUNT],
      timeoutDelayMs: 2 * CONFORMANCE_REQUEST_TIMEOUT_MS,
    });
    const module = dhanModuleAt(fake);
    const { credentials, session } = await dhanConsentLogin(module);
    const broker = module.createBroker({ credentials, session });
    // As the runtime does at start: the scrip master is loaded and the order update socket is up before the first
    // order, so no fault injected by a case is spent on those start-up calls.
    return startedLikeTheRuntime({
      broker,
      fake: control(fake),
      // …and the one order-book read that follows the socket coming up has reached the fake, so it cannot take a fault.
      ready: () =>
        fake.sockets.orderConnections() > 0 &&
        fake.requests.some((r) => r.method === 'GET' && r.path === '/v2/orders'),
      closeFake: () => fake.close(),
    });
  },
});
