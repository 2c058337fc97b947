// The shared broker conformance suite, run against the Upstox adapter and its fake (test/fakes/upstox).
import { upstoxModule } from '../../server/src/brokers/upstox/index';
import { startFakeUpstox } from '../fakes/upstox/server';
import type { FakeUpstox, FakeUpstoxFault } from '../fakes/upstox/server';
import { brokerConformance, startedLikeTheRuntime } from './conformance';
import type { BrokerFault, ConformanceFake, ConformanceSubject, FakeOrderView } from './conformance';

const REDIRECT = 'http://127.0.0.1:3926/broker/upstox/callback';

/** The suite's faults in the fake's terms (`token_expired` and `drop_socket` are handled apart). */
const FAULTS: Readonly<
  Record<Exclude<BrokerFault, 'partial_fill' | 'token_expired' | 'drop_socket'>, FakeUpstoxFault>
> = {
  // A synchronous refusal: a limit outside the protection band (400 UDAPI1159).
  reject: 'price_out_of_range',
  rate_limit: 'rate_limited',
  server_error: 'server_error',
  timeout_placed: 'timeout_placed',
  ip_not_allowed: 'ip_not_allowed',
};

function control(fake: FakeUpstox): ConformanceFake {
  return {
    inject(fault, times = 1) {
      for (let i = 0; i < times; i += 1) {
        if (fault === 'partial_fill') fake.partialNext();
        // The session ends for good, as at 03:30 IST: background calls cannot use up a one-off fault first.
        else if (fault === 'token_expired') fake.expireTokens();
        else if (fault === 'drop_socket') fake.sockets.dropAll();
        else fake.failNext(FAULTS[fault]);
      }
    },
    async fill(brokerOrderId, price, quantity) {
      fake.fill(brokerOrderId, quantity, price);
    },
    orders(): FakeOrderView[] {
      return [...fake.book.orders.values()].map(({ history: [first], current }) => ({
        brokerOrderId: current.order_id,
        tag: current.tag ?? '',
        side: current.transaction_type,
        type: current.order_type,
        quantity: current.quantity,
        price: current.price,
        triggerPrice: current.trigger_price,
        // Upstox refuses raw MARKET / SL-M, so an order it holds was sent with a limit price.
        protected:
          first !== undefined &&
          (first.order_type === 'LIMIT' || first.order_type === 'SL') &&
          first.price > 0,
      }));
    },
    orderRequestTimes: () => fake.orderRequests.times,
    placeRequests: () => fake.orderRequests.placements,
  };
}

brokerConformance({
  name: 'upstox',
  symbol: 'NIFTY01DEC2624000CE',
  lotSize: 65,
  ltp: 120,
  async setup(): Promise<ConformanceSubject> {
    const fake = await startFakeUpstox();
    const module = upstoxModule({
      endpoints: fake.endpoints,
      algoTag: 'OPALGO',
      now: Date.now,
    });
    const credentials = { apiKey: fake.apiKey, apiSecret: fake.apiSecret };
    // The trader's browser: the dialog redirects back to our callback with the code and the state.
    const dialog = await fetch(
      module.redirectLogin!.url({ credentials, state: 'conformance', redirectUri: REDIRECT }),
      {
        redirect: 'manual',
      },
    );
    const query = Object.fromEntries(new URL(dialog.headers.get('location') ?? '').searchParams);
    const session = await module.redirectLogin!.complete({ credentials, query, redirectUri: REDIRECT });
    const broker = module.createBroker({ credentials, session });
    // As the runtime does at start: the instrument master is loaded and the portfolio stream is up before the
    // first order, so no fault injected by a case is spent on those start-up calls.
    return startedLikeTheRuntime({
      broker,
      fake: control(fake),
      ready: () => fake.sockets.portfolioConnections > 0,
      closeFake: () => fake.close(),
    });
  },
});
