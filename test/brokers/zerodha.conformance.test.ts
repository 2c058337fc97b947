// Zerodha (Kite Connect v3) against the Kite fake: the conformance suite, with the account logged in through
// Kite's login redirect and postbacks delivered over HTTP through the server's postback route to the module's hub.
import type { ZerodhaModule } from '../../server/src/brokers/zerodha';
import { startKiteFake, type KiteFake, type KiteFakeApp } from '../fakes/kite/server';
import { startKitePostbackEndpoint, zerodhaModuleAt } from './kiteHarness';
import {
  brokerConformance,
  CONFORMANCE_REQUEST_TIMEOUT_MS,
  type ConformanceSubject,
  type FakeOrderView,
} from './conformance';

/** Logs in through the fake's login page exactly as a browser would follow the redirect. */
async function loginAtFake(fake: KiteFake, app: KiteFakeApp, module: ZerodhaModule) {
  const credentials = { apiKey: app.apiKey, apiSecret: app.apiSecret };
  const state = 'st4te-' + Math.random().toString(36).slice(2);
  const login = module.redirectLogin!.url({ credentials, state, redirectUri: app.redirectUrl });
  const res = await fetch(login, { redirect: 'manual' });
  const back = new URL(res.headers.get('location') ?? '');
  const query = Object.fromEntries(back.searchParams);
  if (module.redirectLogin!.stateOf(query) !== state) throw new Error('state did not come back');
  const session = await module.redirectLogin!.complete({ credentials, query, redirectUri: app.redirectUrl });
  return { credentials, session };
}

function view(fake: KiteFake): readonly FakeOrderView[] {
  return fake.book.all().map((o) => ({
    brokerOrderId: o.order_id,
    tag: o.tag ?? '',
    side: o.transaction_type,
    type: o.order_type,
    quantity: o.quantity,
    price: o.price,
    triggerPrice: o.trigger_price,
    protected: o.order_type === 'LIMIT' || o.order_type === 'SL' || o.market_protection !== 0,
  }));
}

brokerConformance({
  name: 'zerodha',
  symbol: 'NIFTY01DEC2624000CE',
  lotSize: 65,
  ltp: 120,
  async setup(): Promise<ConformanceSubject> {
    const fake = await startKiteFake({ timeoutDelayMs: 2 * CONFORMANCE_REQUEST_TIMEOUT_MS });
    // Polling off: every update in these cases must come through a verified postback.
    const module = zerodhaModuleAt(fake);
    const receiver = await startKitePostbackEndpoint(module.postbacks);
    const app: KiteFakeApp = {
      apiKey: 'kitekey01',
      apiSecret: 'kitesecret01',
      userId: 'AB1234',
      userName: 'Asha Rao',
      redirectUrl: 'http://127.0.0.1:9/broker/zerodha/callback',
      postbackUrl: receiver.url,
    };
    fake.addApp(app);
    const { credentials, session } = await loginAtFake(fake, app, module);
    const broker = module.createBroker({ credentials, session });
    return {
      broker,
      fake: {
        inject: (fault, times, on) => fake.inject(fault, times, on),
        fill: (id, price, quantity) => fake.fill(id, price, quantity),
        orders: () => view(fake),
        orderRequestTimes: () => fake.orderRequests.times,
        placeRequests: () => fake.orderRequests.placements,
      },
      async sendForgedUpdate(brokerOrderId) {
        const found = fake.book.get(brokerOrderId);
        if (!found) throw new Error(`no order ${brokerOrderId}`);
        const forged = { ...found.order, status: 'COMPLETE', filled_quantity: found.order.quantity };
        const status = await fake.postback(found.userId, forged, 'f'.repeat(64));
        return { accepted: status === 200 };
      },
      async close() {
        await fake.close();
        await receiver.close();
      },
    };
  },
});
