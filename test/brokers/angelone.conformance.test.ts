// Angel One (SmartAPI) against the Angel fake: the conformance suite, with the account logged in through the daily
// form login and order updates delivered over the fake's order-status WebSocket (the order book is polled only
// while that socket is down).
import { startAngelFake, type AngelFake } from '../fakes/angelone/server';
import { ANGEL_ACCOUNT, angelFormLogin, angeloneModuleAt } from './angeloneHarness';
import {
  brokerConformance,
  CONFORMANCE_REQUEST_TIMEOUT_MS,
  startedLikeTheRuntime,
  type ConformanceFake,
  type ConformanceSubject,
  type FakeOrderView,
} from './conformance';

function control(fake: AngelFake): ConformanceFake {
  return {
    inject: (fault, times, on) => fake.inject(fault, times, on),
    fill: (id, price, quantity) => fake.fill(id, price, quantity),
    orders: (): FakeOrderView[] =>
      fake.book.all().map((o) => ({
        brokerOrderId: o.orderid,
        tag: o.ordertag,
        side: o.transactiontype,
        type: o.ordertype,
        quantity: o.quantity,
        price: o.price,
        triggerPrice: o.triggerprice,
        // Angel takes only limit and stop-limit orders from APIs: an order it holds went out with a limit price.
        protected: (o.ordertype === 'LIMIT' || o.ordertype === 'STOPLOSS_LIMIT') && o.price > 0,
      })),
    orderRequestTimes: () => fake.orderRequests.times,
    placeRequests: () => fake.orderRequests.placements,
  };
}

brokerConformance({
  name: 'angelone',
  symbol: 'NIFTY01DEC2624000CE',
  lotSize: 65,
  ltp: 120,
  async setup(): Promise<ConformanceSubject> {
    const fake = await startAngelFake({
      accounts: [ANGEL_ACCOUNT],
      timeoutDelayMs: 2 * CONFORMANCE_REQUEST_TIMEOUT_MS,
    });
    const module = angeloneModuleAt(fake);
    const { credentials, session } = await angelFormLogin(module);
    const broker = module.createBroker({ credentials, session });
    // As the runtime does at start: the scrip master is loaded and the order-status socket is up before the first
    // order, so no fault injected by a case is spent on those start-up calls.
    return startedLikeTheRuntime({
      broker,
      fake: control(fake),
      // …and the one order-book read that follows the socket coming up has reached the fake, so it cannot take a
      // fault a case injects (under load it could land after the case's inject: seen as a flaky auth_expired case).
      ready: () =>
        fake.sockets.orderConnections() > 0 &&
        fake.requests.some((r) => r.method === 'GET' && r.path.endsWith('/order/v1/getOrderBook')),
      closeFake: () => fake.close(),
    });
  },
});
