// Alice Blue (ANT) against the Alice Blue fake: the conformance suite, with the account logged in through the
// vendor redirect login and order updates delivered on the fake's NOREN socket (the order book is polled only
// while that socket is down).
import { startAliceFake, type AliceFake } from '../fakes/aliceblue/server';
import { ALICE_ACCOUNT, aliceblueModuleAt, aliceRedirectLogin } from './aliceblueHarness';
import {
  brokerConformance,
  CONFORMANCE_REQUEST_TIMEOUT_MS,
  startedLikeTheRuntime,
  type ConformanceFake,
  type ConformanceSubject,
  type FakeOrderView,
} from './conformance';

function control(fake: AliceFake): ConformanceFake {
  return {
    inject: (fault, times, on) => fake.inject(fault, times, on),
    fill: (id, price, quantity) => fake.fill(id, price, quantity),
    orders: (): FakeOrderView[] =>
      fake.book.all().map((o) => ({
        brokerOrderId: o.Nstordno,
        tag: o.remarks,
        side: o.Trantype,
        type: o.Prctype,
        quantity: o.Qty,
        price: o.Prc,
        triggerPrice: o.Trgprc,
        // The fake takes only limit and stop-limit orders from algos: an order it holds went out with a limit.
        protected: (o.Prctype === 'L' || o.Prctype === 'SL') && o.Prc > 0,
      })),
    orderRequestTimes: () => fake.orderRequests.times,
    placeRequests: () => fake.orderRequests.placements,
  };
}

brokerConformance({
  name: 'aliceblue',
  symbol: 'NIFTY01DEC2624000CE',
  lotSize: 65,
  ltp: 120,
  async setup(): Promise<ConformanceSubject> {
    const fake = await startAliceFake({
      accounts: [ALICE_ACCOUNT],
      timeoutDelayMs: 2 * CONFORMANCE_REQUEST_TIMEOUT_MS,
    });
    const module = aliceblueModuleAt(fake);
    const { credentials, session } = await aliceRedirectLogin(module);
    const broker = module.createBroker({ credentials, session });
    // As the runtime does at start: the master is loaded and the order socket is up before the first order, so
    // no fault injected by a case is spent on those start-up calls.
    return startedLikeTheRuntime({
      broker,
      fake: control(fake),
      // …and the order-book read that follows the order subscription's acknowledgement has reached the fake, so it
      // cannot take a fault a case injects (the race Angel One's suite showed under load).
      ready: () =>
        fake.sockets.orderConnections() > 0 &&
        fake.requests.some((r) => r.path.endsWith('/placeOrder/fetchOrderBook')),
      closeFake: () => fake.close(),
    });
  },
});
