// One signal, two traders, through the real server: one has chosen Live and holds a valid Zerodha session (at the
// Kite fake), the other trades paper. The live trader's entry is a real adapter order at the fake, tagged with the
// algo id, recorded with broker 'zerodha' and a live trade; the paper trader's goes to the paper broker. Before the
// live session is known to the runtime, the same trader enters on paper. On a simulated market (FEED=sim) nothing
// reaches the broker at all. A live position's stop rests at the broker (SL, TRIGGER PENDING): OptionPilot's own
// exit cancels it before selling, and a stop the broker fills by itself closes the trade without another order.
// The scenarios every broker shares run here from ./liveScenarios.ts; this file adds the broker's own wire format.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import {
  listOrders,
  listTrades,
  saveBrokerCredentials,
  saveTradingSettings,
  updateBrokerAccount,
} from '../../server/src/db';
import type { KiteOrder } from '../fakes/kite/orderBook';
import { startKiteFake, type KiteFake, type KiteFakeApp } from '../fakes/kite/server';
import {
  addUser,
  callSetup,
  closeHarnesses,
  dataDir,
  startHarness,
  T0,
  type Harness,
} from '../integration/scriptedServer';
import { liveTradingSuite, type FakeOrder } from './liveScenarios';

const EGRESS_IP = '203.0.113.77';

const APP: KiteFakeApp = {
  apiKey: 'kitekey01',
  apiSecret: 'kitesecret01',
  userId: 'AB1234',
  userName: 'Asha Rao',
  redirectUrl: 'http://127.0.0.1:9/broker/zerodha/callback',
};

describe('live trading through the Zerodha adapter', () => {
  let fake: KiteFake;
  beforeAll(async () => {
    // The scripted day's weekly expiry (6 Jan 2026) and strikes around 24,000; orders fill at once.
    fake = await startKiteFake({ apps: [APP], expiry: '2026-01-06', baseStrike: 24_000, autoFillPrice: 100 });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(closeHarnesses);

  async function connectLive(h: Harness, userId: number, app = APP): Promise<void> {
    const config = h.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = h.server.deps.db.knex;
    await saveBrokerCredentials(knex, userId, {
      broker_type: 'zerodha',
      api_key_enc: box.seal(app.apiKey),
      api_secret_enc: box.seal(app.apiSecret),
      api_key_last4: 'ey01',
    });
    await updateBrokerAccount(knex, userId, {
      status: 'connected',
      access_token_enc: box.seal(fake.issueSession(app.apiKey)),
      // Sessions are checked on the wall clock.
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: app.userId,
      connected_at: Date.now(),
    });
    await saveTradingSettings(knex, userId, { mode: 'live' });
  }

  it('sends the live trader a real order at the broker and the paper trader a paper fill, on one signal', async () => {
    const h = await startHarness(
      dataDir(),
      T0 - 1_000,
      100,
      {
        KITE_API_ROOT: fake.url,
        KITE_LOGIN_URL: `${fake.url}/connect/login`,
        KITE_WS_ROOT: fake.wsUrl,
      },
      true,
    );
    const live = await addUser(h, 'live', true);
    const paper = await addUser(h, 'paper', true);
    await connectLive(h, live);
    await h.server.deps.trading.onUserChanged(live); // the connection routes call it after a login
    expect((await h.server.deps.trading.botStatus(live)).mode).toBe('live');

    const before = fake.orderRequests.placements;
    await callSetup(h);
    await h.server.deps.trading.idle();

    const knex = h.server.deps.db.knex;
    // The entry, and its stop resting at the broker as soon as the entry filled.
    expect(fake.orderRequests.placements - before).toBe(2);
    const [atBroker, stop] = fake.book.all();
    expect(atBroker).toMatchObject({ tradingsymbol: 'NIFTY2610624000CE', transaction_type: 'BUY' });
    expect(atBroker?.tag).toBeTruthy();
    expect(stop).toMatchObject({
      tradingsymbol: 'NIFTY2610624000CE',
      transaction_type: 'SELL',
      status: 'TRIGGER PENDING',
    });
    const liveOrders = await listOrders(knex, { userId: live });
    expect(liveOrders.map((o) => o.broker)).toEqual(['zerodha', 'zerodha']);
    expect(liveOrders.map((o) => o.broker_order_id).sort()).toEqual(
      [atBroker?.order_id, stop?.order_id].sort(),
    );
    const [liveTrade] = await listTrades(knex, { userId: live });
    expect(liveTrade).toMatchObject({ status: 'open', paper: false });
    // The stop order belongs to the trade: its first stop.
    expect(liveOrders.find((o) => o.broker_order_id === stop?.order_id)).toMatchObject({
      purpose: 'stop',
      sequence: 1,
      trade_id: liveTrade!.id,
    });
    // Its trigger is the trade's stop on the tick grid.
    expect(Math.round((stop?.trigger_price ?? 0) * 100)).toBe(Math.floor(liveTrade!.stop_loss_paise / 5) * 5);

    expect((await listOrders(knex, { userId: paper })).map((o) => o.broker)).toEqual(['paper']);
    const [paperTrade] = await listTrades(knex, { userId: paper });
    expect(paperTrade).toMatchObject({ status: 'open', paper: true });
  });

  it('sends nothing to the broker on a simulated market: the Live trader trades paper', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100, {
      KITE_API_ROOT: fake.url,
      KITE_LOGIN_URL: `${fake.url}/connect/login`,
      KITE_WS_ROOT: fake.wsUrl,
    });
    const live = await addUser(h, 'live-on-sim', true);
    await connectLive(h, live);
    await h.server.deps.trading.onUserChanged(live);
    expect((await h.server.deps.trading.botStatus(live)).mode).toBe('paper');

    const before = fake.orderRequests.placements;
    await callSetup(h);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements).toBe(before);
    const knex = h.server.deps.db.knex;
    expect((await listOrders(knex, { userId: live })).map((o) => o.broker)).toEqual(['paper']);
    expect((await listTrades(knex, { userId: live }))[0]).toMatchObject({ paper: true });
  });

  const STATES: Record<string, FakeOrder['state']> = {
    'TRIGGER PENDING': 'resting',
    COMPLETE: 'filled',
    CANCELLED: 'cancelled',
  };
  const view = (o: KiteOrder): FakeOrder => ({
    id: o.order_id,
    side: o.transaction_type,
    limit: o.order_type === 'LIMIT',
    state: STATES[o.status] ?? 'other',
    quantity: o.quantity,
    filledQuantity: o.filled_quantity,
  });

  let apps = 0;
  const live = liveTradingSuite<KiteFakeApp>({
    brokerType: 'zerodha',
    name: 'Kite',
    egressIp: EGRESS_IP,
    fake: () => fake,
    env: () => ({
      KITE_API_ROOT: fake.url,
      KITE_LOGIN_URL: `${fake.url}/connect/login`,
      KITE_WS_ROOT: fake.wsUrl,
      EGRESS_IP,
    }),
    // A Kite app and user of its own per test, so other tests' positions do not count.
    newAccount(name) {
      apps += 1;
      const app = { ...APP, apiKey: `kitekey${10 + apps}`, userId: `KT${1000 + apps}`, userName: name };
      fake.addApp(app);
      return app;
    },
    // The Kite login itself (redirect, request_token, checksum) is tested in connection and e2e tests.
    async connect(h, app, { userId }) {
      await connectLive(h, userId, app);
      await h.server.deps.trading.onUserChanged(userId); // the connection routes call it after a login
    },
    orders: (app) => fake.book.ordersOf(app.userId).map(view),
    order(id) {
      const found = fake.book.get(id);
      return found === undefined ? undefined : view(found.order);
    },
    async sellByHand(app, entryId) {
      const entry = fake.book.get(entryId)!.order;
      const byHand = fake.book.add(app.userId, {
        exchange: 'NFO',
        tradingsymbol: entry.tradingsymbol,
        instrument_token: entry.instrument_token,
        order_type: 'MARKET',
        transaction_type: 'SELL',
        product: entry.product,
        quantity: entry.quantity,
        price: 0,
        trigger_price: 0,
        market_protection: 0,
        tag: null,
        tags: [],
      });
      await fake.fill(byHand.order_id, 90);
    },
    positionAtBroker: (app, entryId) =>
      fake.book.positionsOf(app.userId).get(fake.book.get(entryId)!.order.tradingsymbol)?.quantity,
    titles: { sessionEnd: 'a token Kite refuses (its daily logout) ends the session' },
  });

  live.sharedScenarios();
});
