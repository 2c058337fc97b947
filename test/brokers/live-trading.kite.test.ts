// One signal, two traders, through the real server: one has chosen Live and holds a valid Zerodha session (at the
// Kite fake), the other trades paper. The live trader's entry is a real adapter order at the fake, tagged with the
// algo id, recorded with broker 'zerodha' and a live trade; the paper trader's goes to the paper broker. Before the
// live session is known to the runtime, the same trader enters on paper. On a simulated market (FEED=sim) nothing
// reaches the broker at all. A live position's stop rests at the broker (SL, TRIGGER PENDING): OptionPilot's own
// exit cancels it before selling, and a stop the broker fills by itself closes the trade without another order.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { presentBrokerConnection } from '../../server/src/presenters/broker';
import {
  findBrokerAccountByUser,
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
  MINUTE,
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

  /** A live trader with an open position at the fake: its entry filled and its stop resting. */
  const KITE_ENV = () => ({
    KITE_API_ROOT: fake.url,
    KITE_LOGIN_URL: `${fake.url}/connect/login`,
    KITE_WS_ROOT: fake.wsUrl,
  });

  async function openLivePosition(name: string, dir = dataDir(), app = APP) {
    const h = await startHarness(
      dir,
      T0 - 1_000,
      100,
      { KITE_API_ROOT: fake.url, KITE_LOGIN_URL: `${fake.url}/connect/login`, KITE_WS_ROOT: fake.wsUrl },
      true,
    );
    const userId = await addUser(h, name, true);
    await connectLive(h, userId, app);
    await h.server.deps.trading.onUserChanged(userId);
    const placedBefore = fake.orderRequests.placements;
    await callSetup(h);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(2);
    const mine = fake.book.all().slice(-2);
    const stop = mine.find((o) => o.transaction_type === 'SELL');
    expect(stop?.status).toBe('TRIGGER PENDING');
    return { h, userId, stopId: stop!.order_id, dir };
  }

  it('an exit decided by OptionPilot takes the resting stop off first, then sells once', async () => {
    const { h, userId, stopId } = await openLivePosition('live-exit');
    const placedBefore = fake.orderRequests.placements;
    await h.premium(79); // below the stop (entry − 20): OptionPilot's own stop exit
    const [trade] = await listTrades(h.server.deps.db.knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss' });
    expect(fake.book.get(stopId)?.order.status).toBe('CANCELLED');
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    // The one new order is the exit's SELL, filled; the stop it replaced never filled.
    expect(fake.book.all().at(-1)).toMatchObject({ transaction_type: 'SELL', status: 'COMPLETE' });
    expect(fake.book.get(stopId)?.order.filled_quantity).toBe(0);
  });

  it('a stop the broker fills by itself closes the trade on that fill, with no other order', async () => {
    const { h, userId, stopId } = await openLivePosition('live-broker-stop');
    const placedBefore = fake.orderRequests.placements;
    await fake.fill(stopId, 79.5);
    const knex = h.server.deps.db.knex;
    const until = Date.now() + 15_000;
    while ((await listTrades(knex, { userId }))[0]?.status !== 'closed' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      await h.server.deps.trading.idle();
    }
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss', exit_price_paise: 7_950 });
    expect(fake.orderRequests.placements).toBe(placedBefore);
  });

  it('after a restart finds the stop still resting at the broker instead of placing another', async () => {
    const { h, userId, stopId, dir } = await openLivePosition('live-restart');
    await h.server.close();
    const placedBefore = fake.orderRequests.placements;
    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, KITE_ENV(), true);
    await second.server.deps.trading.idle();
    expect(second.server.deps.trading.openPositions().map((p) => p.accountId)).toEqual([String(userId)]);
    expect(fake.orderRequests.placements).toBe(placedBefore);
    // The stop the first process placed still protects the position: the broker filling it closes the trade.
    await fake.fill(stopId, 79.5);
    const knex = second.server.deps.db.knex;
    const until = Date.now() + 15_000;
    while ((await listTrades(knex, { userId }))[0]?.status !== 'closed' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      await second.server.deps.trading.idle();
    }
    expect((await listTrades(knex, { userId }))[0]).toMatchObject({
      status: 'closed',
      exit_price_paise: 7_950,
    });
    expect(fake.orderRequests.placements).toBe(placedBefore);
  });

  it('at a restart closes a position the trader sold by hand meanwhile (the broker wins) and tells trader and admins', async () => {
    // An account of its own at the fake, so other tests' positions do not count.
    const HAND: KiteFakeApp = { ...APP, apiKey: 'kitekey02', userId: 'CD5678', userName: 'Ravi Iyer' };
    fake.addApp(HAND);
    const { h, userId, stopId, dir } = await openLivePosition('live-by-hand', dataDir(), HAND);
    const knex = h.server.deps.db.knex;
    const [open] = await listTrades(knex, { userId });
    await h.server.close();
    // While OptionPilot is down the trader sells the position in Kite's app, leaving OptionPilot's stop resting.
    const entry = fake.book.ordersOf(HAND.userId).find((o) => o.transaction_type === 'BUY');
    const byHand = fake.book.add(HAND.userId, {
      exchange: 'NFO',
      tradingsymbol: entry!.tradingsymbol,
      instrument_token: entry!.instrument_token,
      order_type: 'MARKET',
      transaction_type: 'SELL',
      product: entry!.product,
      quantity: entry!.quantity,
      price: 0,
      trigger_price: 0,
      market_protection: 0,
      tag: null,
      tags: [],
    });
    await fake.fill(byHand.order_id, 90);

    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, KITE_ENV(), true);
    const secondKnex = second.server.deps.db.knex;
    const until = Date.now() + 15_000;
    // The check looks twice, 3 s apart, before it acts.
    while ((await listTrades(secondKnex, { userId }))[0]?.status !== 'closed' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await second.server.deps.trading.idle();
    const [closed] = await listTrades(secondKnex, { userId });
    expect(closed).toMatchObject({ id: open!.id, status: 'closed', exit_reason: 'broker' });
    // OptionPilot's stop came off before the record closed: it can never sell a position that is gone.
    expect(fake.book.get(stopId)?.order.status).toBe('CANCELLED');
    expect(fake.book.positionsOf(HAND.userId).get(entry!.tradingsymbol)?.quantity).toBe(0);
    expect(second.server.deps.trading.openPositions()).toEqual([]);
    // The trader's Broker Connection card shows the difference; the audit log (the admins' live log) has it too.
    const account = await findBrokerAccountByUser(secondKnex, userId);
    expect(presentBrokerConnection(account!).positionCheck?.differences).toEqual([
      {
        symbol: expect.stringMatching(/^NIFTY/),
        optionPilot: entry!.quantity,
        broker: 0,
        action: 'closed',
        closedTradeIds: [open!.id],
      },
    ]);
    const logs = await secondKnex('logs')
      .where({ user_id: userId })
      .andWhere('description', 'like', 'Positions reconciled%');
    expect(logs).toHaveLength(1);
    expect(String(logs[0].description)).toContain(`trade #${open!.id} closed as sold outside OptionPilot`);
  });

  it('a token the broker refuses marks the session expired, and the card says so with a fixed message', async () => {
    const OWN: KiteFakeApp = { ...APP, apiKey: 'kitekey03', userId: 'EF9012', userName: 'Kavya Nair' };
    fake.addApp(OWN);
    const { h, userId } = await openLivePosition('live-expired', dataDir(), OWN);
    const knex = h.server.deps.db.knex;
    // Kite's daily logout (or the trader logging out everywhere): every token issued so far is refused.
    fake.expireSessions();
    const until = Date.now() + 15_000;
    while ((await findBrokerAccountByUser(knex, userId))?.status !== 'expired' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const account = await findBrokerAccountByUser(knex, userId);
    expect(presentBrokerConnection(account!)).toMatchObject({
      session: 'expired',
      connected: false,
      lastError: 'Your broker session has expired. Reconnect to trade today.',
    });
  });

  it('an order refused for the server IP blocks the account at once: the card and a socket event name the IP, entries stop until the trader resumes', async () => {
    const OWN: KiteFakeApp = { ...APP, apiKey: 'kitekey04', userId: 'GH3456', userName: 'Meera Das' };
    fake.addApp(OWN);
    const h = await startHarness(
      dataDir(),
      T0 - 1_000,
      100,
      { ...KITE_ENV(), EGRESS_IP: '203.0.113.77' },
      true,
    );
    const userId = await addUser(h, 'live-ip', true);
    await connectLive(h, userId, OWN);
    await h.server.deps.trading.onUserChanged(userId);
    const toUser = vi.spyOn(h.server.deps.realtime, 'toUser');

    // Kite answers the entry with 403 PermissionException: this server's IP is not whitelisted in the app.
    fake.inject('ip_not_allowed');
    const placedBefore = fake.orderRequests.placements;
    await callSetup(h);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    const knex = h.server.deps.db.knex;
    const blocked = presentBrokerConnection((await findBrokerAccountByUser(knex, userId))!);
    expect(blocked).toMatchObject({ session: 'ip_blocked', connected: false });
    expect(blocked.lastError).toContain("This server's IP address: 203.0.113.77.");
    expect(toUser).toHaveBeenCalledWith(
      userId,
      'user:broker',
      expect.objectContaining({ session: 'ip_blocked' }),
    );
    expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('paper');
    const audit = await knex('logs')
      .where({ user_id: userId })
      .andWhere('description', 'like', '%refused the server%');
    expect(audit).toHaveLength(1);

    // The next signal sends nothing to the broker: the account trades paper until the trader acts.
    await callSetup(h, 10);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    // Newest first: the second signal's entry went to the paper broker.
    expect((await listOrders(knex, { userId })).map((o) => o.broker)).toEqual(['paper', 'zerodha']);
    h.server.deps.trading.flattenAll();
    await h.server.deps.trading.idle();

    // The trader whitelists the IP and resumes: the next entry goes to the broker again.
    await knex('broker_accounts')
      .where({ user_id: userId })
      .update({ ip_blocked_at: null, last_error: null });
    await h.server.deps.trading.onUserChanged(userId);
    expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('live');
    await callSetup(h, 20);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(3); // the entry and its resting stop
    expect(fake.book.ordersOf(OWN.userId).find((o) => o.transaction_type === 'BUY')?.tag).toMatch(/^OPTI/);
  });
});
