// One signal, two traders, through the real server: one has chosen Live and holds a valid Zerodha session (at the
// Kite fake), the other trades paper. The live trader's entry is a real adapter order at the fake, tagged with the
// algo id, recorded with broker 'zerodha' and a live trade; the paper trader's goes to the paper broker. Before the
// live session is known to the runtime, the same trader enters on paper. On a simulated market (FEED=sim) nothing
// reaches the broker at all.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import {
  listOrders,
  listTrades,
  saveBrokerCredentials,
  saveTradingSettings,
  updateBrokerAccount,
} from '../../server/src/db';
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

  async function connectLive(h: Harness, userId: number): Promise<void> {
    const config = h.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = h.server.deps.db.knex;
    await saveBrokerCredentials(knex, userId, {
      broker_type: 'zerodha',
      api_key_enc: box.seal(APP.apiKey),
      api_secret_enc: box.seal(APP.apiSecret),
      api_key_last4: 'ey01',
    });
    await updateBrokerAccount(knex, userId, {
      status: 'connected',
      access_token_enc: box.seal(fake.issueSession(APP.apiKey)),
      // Sessions are checked on the wall clock.
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: APP.userId,
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

    const before = fake.placeRequests;
    await callSetup(h);
    await h.server.deps.trading.idle();

    const knex = h.server.deps.db.knex;
    expect(fake.placeRequests - before).toBe(1);
    const [atBroker] = fake.book.all();
    expect(atBroker).toMatchObject({ tradingsymbol: 'NIFTY2610624000CE', transaction_type: 'BUY' });
    expect(atBroker?.tag).toBeTruthy();
    const liveOrders = await listOrders(knex, { userId: live });
    expect(liveOrders.map((o) => o.broker)).toEqual(['zerodha']);
    expect(liveOrders[0]?.broker_order_id).toBe(atBroker?.order_id);
    const [liveTrade] = await listTrades(knex, { userId: live });
    expect(liveTrade).toMatchObject({ status: 'open', paper: false });

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

    const before = fake.placeRequests;
    await callSetup(h);
    await h.server.deps.trading.idle();
    expect(fake.placeRequests).toBe(before);
    const knex = h.server.deps.db.knex;
    expect((await listOrders(knex, { userId: live })).map((o) => o.broker)).toEqual(['paper']);
    expect((await listTrades(knex, { userId: live }))[0]).toMatchObject({ paper: true });
  });
});
