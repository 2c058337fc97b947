// Fyers (API v3) against the Fyers fake: the conformance suite, with the account logged in through Fyers' login
// redirect and validate-authcode, and order updates pushed over the order socket.
import { fyersModule } from '../../server/src/brokers/fyers';
import { startFyersFake, type FyersFake, type FyersFakeApp } from '../fakes/fyers/server';
import {
  brokerConformance,
  CONFORMANCE_REQUEST_TIMEOUT_MS,
  startedLikeTheRuntime,
  type ConformanceSubject,
  type FakeOrderView,
} from './conformance';

const APP: FyersFakeApp = {
  appId: 'FYAPP01-100',
  secret: 'fysecret01',
  fyId: 'XA01234',
  name: 'Asha Rao',
  redirectUrl: 'http://127.0.0.1:9/broker/fyers/callback',
};

const SIDES = { 1: 'BUY', [-1]: 'SELL' } as const;
const TYPES: Readonly<Record<number, string>> = { 1: 'LIMIT', 2: 'MARKET', 3: 'SL-M', 4: 'SL' };

function view(fake: FyersFake): readonly FakeOrderView[] {
  return fake.book.all().map((o) => ({
    brokerOrderId: o.id,
    tag: o.orderTag,
    side: SIDES[o.side as 1 | -1],
    type: TYPES[o.type] ?? String(o.type),
    quantity: o.qty,
    price: o.limitPrice,
    triggerPrice: o.stopPrice,
    // Protected: a limit (LIMIT or SL-L) with a price, never a raw MARKET / SL-M.
    protected: (o.type === 1 || o.type === 4) && o.limitPrice > 0,
  }));
}

brokerConformance({
  name: 'fyers',
  symbol: 'NIFTY01DEC2624000CE',
  lotSize: 65,
  ltp: 120,
  async setup(): Promise<ConformanceSubject> {
    const fake = await startFyersFake({ apps: [APP], timeoutDelayMs: 2 * CONFORMANCE_REQUEST_TIMEOUT_MS });
    const module = fyersModule({ endpoints: fake.endpoints, algoTag: 'OPALGO', now: Date.now });
    const credentials = { apiKey: APP.appId, apiSecret: APP.secret };
    // The trader's browser: the login page redirects back to our callback with the auth code and the state.
    const state = 'st4te-' + Math.random().toString(36).slice(2);
    const login = await fetch(
      module.redirectLogin!.url({ credentials, state, redirectUri: APP.redirectUrl }),
      {
        redirect: 'manual',
      },
    );
    const query = Object.fromEntries(new URL(login.headers.get('location') ?? '').searchParams);
    if (module.redirectLogin!.stateOf(query) !== state) throw new Error('state did not come back');
    const session = await module.redirectLogin!.complete({
      credentials,
      query,
      redirectUri: APP.redirectUrl,
    });
    const broker = module.createBroker({ credentials, session });
    // As the runtime does at start: the master is loaded and the order socket is up before the first order, so
    // no fault injected by a case is spent on start-up calls.
    return startedLikeTheRuntime({
      broker,
      fake: {
        inject: (fault, times) => fake.inject(fault, times),
        fill: (id, price, quantity) => fake.fill(id, price, quantity),
        orders: () => view(fake),
        orderRequestTimes: () => fake.orderRequests.times,
        placeRequests: () => fake.orderRequests.placements,
      },
      ready: () => fake.orderSocket.connectionsOf(APP.fyId) > 0,
      closeFake: () => fake.close(),
    });
  },
});
