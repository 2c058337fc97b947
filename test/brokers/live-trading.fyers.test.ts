// One signal through the real server to a trader who has chosen Live and holds a valid Fyers session (at the Fyers
// fake): the entry is a real adapter order at the fake (a protected LIMIT carrying the algo tag and the client order
// id), and the position's stop rests at Fyers as a stop-limit (SL-L) that trails up with the premium. OptionPilot's
// own exit cancels it before selling; a stop Fyers fills by itself closes the trade on that fill. A restart finds
// the resting stop instead of placing another, and closes a position sold by hand meanwhile. Fyers refusing the
// token ends the session (the card says so); refusing the server's IP blocks the account with EGRESS_IP named.
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
import type { FyersOrder } from '../fakes/fyers/orderBook';
import { startFyersFake, type FyersFake, type FyersFakeApp } from '../fakes/fyers/server';
import { closeHarnesses, type Harness } from '../integration/scriptedServer';
import { liveTradingSuite, type FakeOrder } from './liveScenarios';
import { eventually } from './waiting';

const APP: FyersFakeApp = {
  appId: 'FYLIVE1-100',
  secret: 'fysecret01',
  fyId: 'XA01234',
  name: 'Asha Rao',
  redirectUrl: 'http://127.0.0.1:9/broker/fyers/callback',
};

const TICKER = 'NSE:NIFTY2610624000CE';
const SL_L = 4;
const EGRESS_IP = '203.0.113.77';

describe('live trading through the Fyers adapter', () => {
  let fake: FyersFake;
  beforeAll(async () => {
    // The scripted day's weekly expiry (6 Jan 2026) and strikes around 24,000; orders fill at once.
    fake = await startFyersFake({
      apps: [APP],
      expiry: '2026-01-06',
      baseStrike: 24_000,
      autoFillPrice: 100,
    });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(closeHarnesses);

  const FYERS_ENV = (extra: Record<string, string> = {}) => ({
    FYERS_API_ROOT: fake.url,
    FYERS_LOGIN_URL: `${fake.url}/api/v3/generate-authcode`,
    FYERS_WS_ROOT: fake.wsUrl,
    FYERS_MASTER_ROOT: fake.url,
    ...extra,
  });

  async function connectLive(h: Harness, userId: number, app = APP): Promise<void> {
    const config = h.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = h.server.deps.db.knex;
    await saveBrokerCredentials(knex, userId, {
      broker_type: 'fyers',
      api_key_enc: box.seal(app.appId),
      api_secret_enc: box.seal(app.secret),
      api_key_last4: app.appId.slice(-4),
    });
    await updateBrokerAccount(knex, userId, {
      status: 'connected',
      access_token_enc: box.seal(fake.issueSession(app.appId)),
      // Sessions are checked on the wall clock.
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: app.fyId,
      connected_at: Date.now(),
    });
    await saveTradingSettings(knex, userId, { mode: 'live' });
  }

  const STATES: Record<number, FakeOrder['state']> = { 6: 'resting', 2: 'filled', 1: 'cancelled' };
  const view = (o: FyersOrder): FakeOrder => ({
    id: o.id,
    side: o.side === 1 ? 'BUY' : 'SELL',
    limit: o.type === 1,
    state: STATES[o.status] ?? 'other',
    quantity: o.qty,
    filledQuantity: o.filledQty,
  });

  let apps = 0;
  const live = liveTradingSuite<FyersFakeApp>({
    brokerType: 'fyers',
    name: 'Fyers',
    egressIp: EGRESS_IP,
    fake: () => fake,
    env: () => FYERS_ENV({ EGRESS_IP }),
    // A Fyers app and client id of its own per test, so other tests' positions do not count.
    newAccount(name) {
      apps += 1;
      const app = { ...APP, appId: `FYLIVE${10 + apps}-100`, fyId: `XF${10_000 + apps}`, name };
      fake.addApp(app);
      return app;
    },
    // The Fyers login itself (generate-authcode, validate-authcode) is tested in connection and e2e tests.
    async connect(h, app, { userId }) {
      await connectLive(h, userId, app);
      await h.server.deps.trading.onUserChanged(userId); // the connection routes call it after a login
    },
    orders: (app) => fake.book.ordersOf(app.fyId).map(view),
    order(id) {
      const found = fake.book.get(id);
      return found === undefined ? undefined : view(found.order);
    },
    async sellByHand(app, entryId) {
      const entry = fake.book.get(entryId)!.order;
      const byHand = fake.book.add(app.fyId, {
        symbol: entry.symbol,
        fyToken: entry.fyToken,
        qty: entry.qty,
        limitPrice: 0,
        stopPrice: 0,
        type: 2,
        side: -1,
        productType: 'INTRADAY',
        orderTag: '',
      });
      await fake.fill(byHand.id, 90);
    },
    positionAtBroker(app, entryId) {
      const { symbol } = fake.book.get(entryId)!.order;
      return fake.book.positionsOf(app.fyId).find((p) => p.symbol === symbol)?.netQty as number | undefined;
    },
    titles: { sessionEnd: 'a token Fyers refuses (its daily logout) ends the session' },
  });
  const { openLivePosition } = live;

  it('sends the Live trader’s entry to Fyers as a tagged, protected limit and rests the stop as a stop-limit', async () => {
    const { h, userId, account, stopId } = await openLivePosition('Asha Rao');
    const entryId = fake.book.ordersOf(account.fyId).find((o) => o.side === 1)!.id;
    const knex = h.server.deps.db.knex;
    const entry = fake.book.get(entryId)!.order;
    expect(entry).toMatchObject({ symbol: TICKER, side: 1, type: 1, status: 2, productType: 'INTRADAY' });
    expect(entry.limitPrice).toBeGreaterThan(100);
    // ALGO_TAG (default OPTIONPILOT) shortened to the room left, then the client order id: 30 alphanumerics.
    expect(entry.orderTag).toMatch(/^OPTIONPILOTOP[0-9a-z]{14}$/);
    const orders = await listOrders(knex, { userId });
    expect(orders.map((o) => o.broker)).toEqual(['fyers', 'fyers']);
    expect(orders.map((o) => o.broker_order_id).sort()).toEqual([entryId, stopId].sort());
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'open', paper: false });
    expect(orders.find((o) => o.broker_order_id === stopId)).toMatchObject({
      purpose: 'stop',
      sequence: 1,
      trade_id: trade!.id,
    });
    // The stop-limit's trigger is the trade's stop on the tick grid; its limit lies below it (a protected sell).
    const stop = fake.book.get(stopId)!.order;
    expect(Math.round(stop.stopPrice * 100)).toBe(Math.floor(trade!.stop_loss_paise / 5) * 5);
    expect(stop.limitPrice).toBeLessThan(stop.stopPrice);

    // The premium runs up: the stop trails, and the resting order at Fyers is modified to the new trigger.
    const before = stop.stopPrice;
    await h.premium(entry.tradedPrice + 30);
    await h.server.deps.trading.idle();
    await eventually(
      async () => fake.book.get(stopId)!.order.stopPrice > before,
      'the resting stop to trail',
      15_000,
    );
    const [trailed] = await listTrades(knex, { userId });
    expect(Math.round(fake.book.get(stopId)!.order.stopPrice * 100)).toBe(
      Math.floor(trailed!.stop_loss_paise / 5) * 5,
    );
    expect(fake.book.get(stopId)!.order.status).toBe(6);
    // The modify repeats the whole order, as Fyers takes it: type SL-L, quantity and both prices.
    const trailedStop = fake.book.get(stopId)!.order;
    expect(fake.modifyBodies.at(-1)).toEqual({
      id: stopId,
      type: SL_L,
      qty: trailedStop.qty,
      limitPrice: trailedStop.limitPrice,
      stopPrice: trailedStop.stopPrice,
    });
    expect(trailedStop.limitPrice).toBeLessThan(trailedStop.stopPrice);
  });

  live.sharedScenarios();
});
