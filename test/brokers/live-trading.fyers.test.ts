// One signal through the real server to a trader who has chosen Live and holds a valid Fyers session (at the Fyers
// fake): the entry is a real adapter order at the fake (a protected LIMIT carrying the algo tag and the client order
// id), and the position's stop rests at Fyers as a stop-limit (SL-L) that trails up with the premium. OptionPilot's
// own exit cancels it before selling; a stop Fyers fills by itself closes the trade on that fill. A restart finds
// the resting stop instead of placing another, and closes a position sold by hand meanwhile. Fyers refusing the
// token ends the session (the card says so); refusing the server's IP blocks the account with EGRESS_IP named.
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
import { startFyersFake, type FyersFake, type FyersFakeApp } from '../fakes/fyers/server';
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

const APP: FyersFakeApp = {
  appId: 'FYLIVE1-100',
  secret: 'fysecret01',
  fyId: 'XA01234',
  name: 'Asha Rao',
  redirectUrl: 'http://127.0.0.1:9/broker/fyers/callback',
};

const TICKER = 'NSE:NIFTY2610624000CE';
const SL_L = 4;

async function until(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

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

  /** A live trader with an open position at the fake: its entry filled and its stop resting. */
  async function openLivePosition(name: string, dir = dataDir(), app = APP) {
    const h = await startHarness(dir, T0 - 1_000, 100, FYERS_ENV(), true);
    const userId = await addUser(h, name, true);
    await connectLive(h, userId, app);
    await h.server.deps.trading.onUserChanged(userId); // the connection routes call it after a login
    expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('live');
    const placedBefore = fake.orderRequests.placements;
    await callSetup(h);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(2);
    const mine = fake.book.ordersOf(app.fyId).slice(-2);
    const entry = mine.find((o) => o.side === 1);
    const stop = mine.find((o) => o.side === -1);
    expect(stop).toMatchObject({ type: SL_L, status: 6 });
    return { h, userId, entryId: entry!.id, stopId: stop!.id, dir };
  }

  it('sends the Live trader’s entry to Fyers as a tagged, protected limit and rests the stop as a stop-limit', async () => {
    const { h, userId, entryId, stopId } = await openLivePosition('live');
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
    await until(async () => fake.book.get(stopId)!.order.stopPrice > before, 'the resting stop to trail');
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

  it('an exit decided by OptionPilot takes the resting stop off first, then sells once', async () => {
    const { h, userId, stopId } = await openLivePosition('live-exit');
    const placedBefore = fake.orderRequests.placements;
    await h.premium(79); // below the stop (entry − 20): OptionPilot's own stop exit
    const [trade] = await listTrades(h.server.deps.db.knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss' });
    expect(fake.book.get(stopId)?.order.status).toBe(1);
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    // The one new order is the exit's SELL, filled; the stop it replaced never filled.
    expect(fake.book.ordersOf(APP.fyId).at(-1)).toMatchObject({ side: -1, type: 1, status: 2 });
    expect(fake.book.get(stopId)?.order.filledQty).toBe(0);
  });

  it('a stop Fyers fills by itself closes the trade on that fill, with no other order', async () => {
    const { h, userId, stopId } = await openLivePosition('live-broker-stop');
    const placedBefore = fake.orderRequests.placements;
    await fake.fill(stopId, 79.5);
    const knex = h.server.deps.db.knex;
    await until(async () => {
      await h.server.deps.trading.idle();
      return (await listTrades(knex, { userId }))[0]?.status === 'closed';
    }, 'the trade to close');
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss', exit_price_paise: 7_950 });
    expect(fake.orderRequests.placements).toBe(placedBefore);
  });

  it('after a restart finds the stop still resting at Fyers instead of placing another', async () => {
    const { h, userId, stopId, dir } = await openLivePosition('live-restart');
    await h.server.close();
    const placedBefore = fake.orderRequests.placements;
    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, FYERS_ENV(), true);
    await second.server.deps.trading.idle();
    expect(second.server.deps.trading.openPositions().map((p) => p.accountId)).toEqual([String(userId)]);
    expect(fake.orderRequests.placements).toBe(placedBefore);
    // The stop the first process placed still protects the position: Fyers filling it closes the trade.
    await fake.fill(stopId, 79.5);
    const knex = second.server.deps.db.knex;
    await until(async () => {
      await second.server.deps.trading.idle();
      return (await listTrades(knex, { userId }))[0]?.status === 'closed';
    }, 'the trade to close after the restart');
    expect((await listTrades(knex, { userId }))[0]).toMatchObject({
      status: 'closed',
      exit_price_paise: 7_950,
    });
    expect(fake.orderRequests.placements).toBe(placedBefore);
  });

  it('at a restart closes a position the trader sold by hand meanwhile (Fyers wins) and tells trader and admins', async () => {
    // An account of its own at the fake, so other tests' positions do not count.
    const HAND: FyersFakeApp = { ...APP, appId: 'FYLIVE2-100', fyId: 'XB05678', name: 'Ravi Iyer' };
    fake.addApp(HAND);
    const { h, userId, stopId, dir } = await openLivePosition('live-by-hand', dataDir(), HAND);
    const [open] = await listTrades(h.server.deps.db.knex, { userId });
    await h.server.close();
    // While OptionPilot is down the trader sells the position in Fyers' app, leaving OptionPilot's stop resting.
    const entry = fake.book.ordersOf(HAND.fyId).find((o) => o.side === 1)!;
    const byHand = fake.book.add(HAND.fyId, {
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

    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, FYERS_ENV(), true);
    const knex = second.server.deps.db.knex;
    // The check looks twice, 3 s apart, before it acts.
    await until(
      async () => (await listTrades(knex, { userId }))[0]?.status === 'closed',
      'the reconciliation',
    );
    await second.server.deps.trading.idle();
    const [closed] = await listTrades(knex, { userId });
    expect(closed).toMatchObject({ id: open!.id, status: 'closed', exit_reason: 'broker' });
    // OptionPilot's stop came off before the record closed: it can never sell a position that is gone.
    expect(fake.book.get(stopId)?.order.status).toBe(1);
    expect(fake.book.positionsOf(HAND.fyId).find((p) => p.symbol === entry.symbol)?.netQty).toBe(0);
    expect(second.server.deps.trading.openPositions()).toEqual([]);
    const account = await findBrokerAccountByUser(knex, userId);
    expect(presentBrokerConnection(account!).positionCheck?.differences).toEqual([
      {
        symbol: 'NIFTY06JAN2624000CE',
        optionPilot: entry.qty,
        broker: 0,
        action: 'closed',
        closedTradeIds: [open!.id],
      },
    ]);
    const logs = await knex('logs')
      .where({ user_id: userId })
      .andWhere('description', 'like', 'Positions reconciled%');
    expect(logs).toHaveLength(1);
  });

  it('a token Fyers refuses marks the session expired, and the card says so with a fixed message', async () => {
    const OWN: FyersFakeApp = { ...APP, appId: 'FYLIVE3-100', fyId: 'XC09012', name: 'Kavya Nair' };
    fake.addApp(OWN);
    const { h, userId } = await openLivePosition('live-expired', dataDir(), OWN);
    const knex = h.server.deps.db.knex;
    // 06:00 IST: every token issued so far is refused (-8), and the order sockets close.
    fake.expireSessions();
    await until(
      async () => (await findBrokerAccountByUser(knex, userId))?.status === 'expired',
      'the session to end',
    );
    expect(presentBrokerConnection((await findBrokerAccountByUser(knex, userId))!)).toMatchObject({
      session: 'expired',
      connected: false,
      lastError: 'Your broker session has expired. Reconnect to trade today.',
    });
  });

  it('an order refused for the server IP blocks the account at once: the card and a socket event name the IP, entries stop until the trader resumes', async () => {
    const OWN: FyersFakeApp = { ...APP, appId: 'FYLIVE4-100', fyId: 'XD03456', name: 'Meera Das' };
    fake.addApp(OWN);
    const h = await startHarness(dataDir(), T0 - 1_000, 100, FYERS_ENV({ EGRESS_IP: '203.0.113.77' }), true);
    const userId = await addUser(h, 'live-ip', true);
    await connectLive(h, userId, OWN);
    await h.server.deps.trading.onUserChanged(userId);
    const toUser = vi.spyOn(h.server.deps.realtime, 'toUser');

    // Fyers answers the entry with 403: this server's IP is not whitelisted in the app.
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

    // The next signal sends nothing to Fyers: the account trades paper until the trader acts.
    await callSetup(h, 10);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    expect((await listOrders(knex, { userId })).map((o) => o.broker)).toEqual(['paper', 'fyers']);
    h.server.deps.trading.flattenAll();
    await h.server.deps.trading.idle();

    // The trader whitelists the IP and resumes: the next entry goes to Fyers again.
    await knex('broker_accounts')
      .where({ user_id: userId })
      .update({ ip_blocked_at: null, last_error: null });
    await h.server.deps.trading.onUserChanged(userId);
    expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('live');
    await callSetup(h, 20);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(3); // the entry and its resting stop
  });
});
