// Live trading through Dhan, through the real server at the Dhan fake. The trader signs up, saves their Dhan key,
// logs in with a pasted access token over HTTP and switches to Live; one signal then sends a protected LIMIT entry
// by security id, its correlationId carrying the algo tag and the client order id, and its stop rests at Dhan as a
// STOP_LOSS (stop-limit) that trails by modify. OptionPilot's own exit cancels the resting stop before selling; a
// stop Dhan fills by itself closes the trade without another order; after a restart the stop is found resting, not
// placed again; a position sold by hand meanwhile is closed by reconciliation; the token's end (DH-901) turns the
// card to Session expired; an order refused for the server's IP (DH-911) blocks the account with EGRESS_IP named.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientOrderIdOfTag } from '../../server/src/brokers/orderTag';
import { presentBrokerConnection } from '../../server/src/presenters/broker';
import {
  findBrokerAccountByUser,
  listOrders,
  listTrades,
  saveTradingSettings,
  updateUser,
} from '../../server/src/db';
import { registration } from '../../server/src/testing/server';
import { startDhanFake, type DhanFake, type DhanFakeAccount } from '../fakes/dhan/server';
import { call, settledUntil } from './waiting';
import {
  callSetup,
  closeHarnesses,
  dataDir,
  MINUTE,
  startHarness,
  T0,
  type Harness,
} from '../integration/scriptedServer';

const EGRESS_IP = '203.0.113.78';

let accounts = 0;
/** A Dhan account of its own per test, so one test's positions never count in another's. */
function newAccount(name: string): DhanFakeAccount {
  accounts += 1;
  return {
    clientId: String(1_200_000_000 + accounts),
    name,
    appId: `app${accounts}`,
    appSecret: `secret${accounts}`,
  };
}

describe('live trading through the Dhan adapter', () => {
  let fake: DhanFake;
  beforeAll(async () => {
    // The scripted day's weekly expiry (6 Jan 2026) and strikes around 24,000; limit orders fill at once.
    fake = await startDhanFake({ expiry: '2026-01-06', baseStrike: 24_000, autoFillPrice: 100 });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(closeHarnesses);

  const env = (extra: Record<string, string> = {}) => ({
    DHAN_API_ROOT: fake.url,
    DHAN_LOGIN_URL: fake.endpoints.loginUrl,
    DHAN_WS_ROOT: fake.endpoints.wsRoot,
    DHAN_MASTER_ROOT: fake.url,
    EGRESS_IP,
    ...extra,
  });

  /** A subscribed trader with the bot on who connects Dhan with a pasted token and goes Live, all over HTTP. */
  async function liveTrader(
    h: Harness,
    account: DhanFakeAccount,
  ): Promise<{ userId: number; token: string }> {
    fake.addAccount(account);
    const registered = await call(h, 'POST', '/api/auth/register', registration(account.clientId));
    expect(registered.status, registered.text).toBe(201);
    const token = registered.json.token as string;
    const userId = (registered.json.user as { id: number }).id;
    const knex = h.server.deps.db.knex;
    await updateUser(knex, userId, {
      subscription_status: 'active',
      subscription_start_at: T0 - 86_400_000,
      subscription_end_at: Date.UTC(2099, 0, 1),
    });
    await saveTradingSettings(knex, userId, { bot_enabled: true, target_points: 40, trade_quantity: 1 });
    const saved = await call(
      h,
      'POST',
      '/api/user/broker',
      { brokerType: 'dhan', apiKey: `${account.clientId}:${account.appId}`, apiSecret: account.appSecret },
      token,
    );
    expect(saved.status, saved.text).toBe(200);
    const loggedIn = await call(
      h,
      'POST',
      '/api/user/broker/login',
      { fields: { clientId: account.clientId, accessToken: fake.issueToken(account.clientId) } },
      token,
    );
    expect(loggedIn.status, loggedIn.text).toBe(200);
    expect(loggedIn.json.broker).toMatchObject({ session: 'connected' });
    const live = await call(h, 'PUT', '/api/user/trading-mode', { mode: 'live', acceptRisk: true }, token);
    expect(live.status, live.text).toBe(200);
    expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('live');
    return { userId, token };
  }

  /** A live trader with an open position at the fake: its entry filled and its stop resting. */
  async function openLivePosition(name: string, dir = dataDir()) {
    const h = await startHarness(dir, T0 - 1_000, 100, env(), true);
    const account = newAccount(name);
    const { userId } = await liveTrader(h, account);
    const placedBefore = fake.orderRequests.placements;
    await callSetup(h);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(2);
    const stop = fake.book.ordersOf(account.clientId).find((o) => o.transactionType === 'SELL');
    expect(stop?.orderStatus).toBe('PENDING');
    return { h, userId, account, stopId: stop!.orderId, dir };
  }

  it('sends the entry as a protected LIMIT by security id with the algo tag; its stop rests as STOP_LOSS and trails by modify', async () => {
    const loginAt = Date.now();
    const { h, userId, account, stopId } = await openLivePosition('Asha Rao');
    const knex = h.server.deps.db.knex;
    // The pasted token lasts 24 hours.
    const row = await findBrokerAccountByUser(knex, userId);
    expect(row!.token_expires_at! - loginAt).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    expect(row!.token_expires_at! - loginAt).toBeGreaterThan(23 * 3_600_000);

    const [entry, stop] = fake.book.ordersOf(account.clientId);
    const instrument = fake.instruments.find((i) => i.strike === 24_000 && i.optionType === 'CE');
    expect(entry).toMatchObject({
      orderType: 'LIMIT',
      transactionType: 'BUY',
      productType: 'INTRADAY',
      validity: 'DAY',
      exchangeSegment: 'NSE_FNO',
      securityId: instrument?.securityId,
      orderStatus: 'TRADED',
    });
    // Protected: a BUY limit above the premium it was decided on (100), never a market order.
    expect(entry!.price).toBeGreaterThan(100);
    const orders = await listOrders(knex, { userId });
    expect(orders.map((o) => o.broker)).toEqual(['dhan', 'dhan']);
    expect(entry!.correlationId.length).toBeLessThanOrEqual(25);
    expect(clientOrderIdOfTag(entry!.correlationId)).toBe(
      orders.find((o) => o.broker_order_id === entry!.orderId)?.client_order_id,
    );
    expect(stop).toMatchObject({ orderType: 'STOP_LOSS', transactionType: 'SELL' });
    // A stop-limit sells no lower than a few percent under its trigger.
    expect(stop!.price).toBeLessThan(stop!.triggerPrice);
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'open', paper: false });
    expect(orders.find((o) => o.broker_order_id === stopId)).toMatchObject({
      purpose: 'stop',
      trade_id: trade!.id,
    });

    // The premium runs 30 above the entry: the stop trails up at the broker by a modify of the resting order.
    const triggerBefore = stop!.triggerPrice;
    await h.premium(trade!.entry_price_paise / 100 + 30);
    await settledUntil(
      async () => (fake.book.get(stopId)?.triggerPrice ?? 0) > triggerBefore,
      h,
      'the trail',
    );
    expect(fake.book.get(stopId)).toMatchObject({ orderStatus: 'PENDING', filledQty: 0 });

    // Every call of this account named its token and client id.
    const mine = fake.requests.filter(
      (r) => r.path.startsWith('/v2/') && r.headers['client-id'] === account.clientId,
    );
    expect(mine.length).toBeGreaterThan(3);
    for (const r of mine) expect(String(r.headers['access-token']).length).toBeGreaterThan(20);
  });

  it('an exit decided by OptionPilot takes the resting stop off first, then sells once', async () => {
    const { h, userId, account, stopId } = await openLivePosition('Ravi Iyer');
    const placedBefore = fake.orderRequests.placements;
    const [open] = await listTrades(h.server.deps.db.knex, { userId });
    await h.premium(open!.entry_price_paise / 100 - 25); // below the stop: OptionPilot's own stop exit
    const [trade] = await listTrades(h.server.deps.db.knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss' });
    expect(fake.book.get(stopId)?.orderStatus).toBe('CANCELLED');
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    expect(fake.book.ordersOf(account.clientId).at(-1)).toMatchObject({
      transactionType: 'SELL',
      orderType: 'LIMIT',
      orderStatus: 'TRADED',
    });
    expect(fake.book.get(stopId)?.filledQty).toBe(0);
  });

  it('a stop Dhan fills by itself closes the trade on that fill, with no other order', async () => {
    const { h, userId, stopId } = await openLivePosition('Kavya Nair');
    const placedBefore = fake.orderRequests.placements;
    await fake.fill(stopId, 79.5);
    const knex = h.server.deps.db.knex;
    await settledUntil(
      async () => (await listTrades(knex, { userId }))[0]?.status === 'closed',
      h,
      'the close',
    );
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss', exit_price_paise: 7_950 });
    expect(fake.orderRequests.placements).toBe(placedBefore);
  });

  it('after a restart finds the stop still resting at Dhan instead of placing another', async () => {
    const { h, userId, stopId, dir } = await openLivePosition('Meera Das');
    await h.server.close();
    const placedBefore = fake.orderRequests.placements;
    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, env(), true);
    await second.server.deps.trading.idle();
    expect(second.server.deps.trading.openPositions().map((p) => p.accountId)).toEqual([String(userId)]);
    expect(fake.orderRequests.placements).toBe(placedBefore);
    await fake.fill(stopId, 79.5);
    const knex = second.server.deps.db.knex;
    await settledUntil(
      async () => (await listTrades(knex, { userId }))[0]?.status === 'closed',
      second,
      'the close',
    );
    expect((await listTrades(knex, { userId }))[0]).toMatchObject({
      status: 'closed',
      exit_price_paise: 7_950,
    });
    expect(fake.orderRequests.placements).toBe(placedBefore);
  });

  it('at a restart closes a position the trader sold by hand meanwhile (Dhan wins) and says so', async () => {
    const { h, userId, account, stopId, dir } = await openLivePosition('Dev Menon');
    const knex = h.server.deps.db.knex;
    const [open] = await listTrades(knex, { userId });
    await h.server.close();
    const entry = fake.book.ordersOf(account.clientId).find((o) => o.transactionType === 'BUY')!;
    fake.placeByHand(account.clientId, {
      securityId: entry.securityId,
      side: 'SELL',
      quantity: entry.quantity,
      price: 90,
    });

    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, env(), true);
    const secondKnex = second.server.deps.db.knex;
    await settledUntil(
      async () => (await listTrades(secondKnex, { userId }))[0]?.status === 'closed',
      second,
      'the check',
    );
    const [closed] = await listTrades(secondKnex, { userId });
    expect(closed).toMatchObject({ id: open!.id, status: 'closed', exit_reason: 'broker' });
    expect(fake.book.get(stopId)?.orderStatus).toBe('CANCELLED');
    expect(second.server.deps.trading.openPositions()).toEqual([]);
    const account2 = await findBrokerAccountByUser(secondKnex, userId);
    expect(presentBrokerConnection(account2!).positionCheck?.differences).toEqual([
      {
        symbol: 'NIFTY06JAN2624000CE',
        optionPilot: entry.quantity,
        broker: 0,
        action: 'closed',
        closedTradeIds: [open!.id],
      },
    ]);
  });

  it("the token's end (DH-901) ends the session: the card says Session expired with the fixed message", async () => {
    const { h, userId } = await openLivePosition('Nisha Pillai');
    const knex = h.server.deps.db.knex;
    fake.expireSessions();
    await settledUntil(
      async () => (await findBrokerAccountByUser(knex, userId))?.status === 'expired',
      h,
      'the session to be marked expired',
    );
    expect(presentBrokerConnection((await findBrokerAccountByUser(knex, userId))!)).toMatchObject({
      session: 'expired',
      connected: false,
      lastError: 'Your broker session has expired. Reconnect to trade today.',
    });
  });

  it('an order refused for the server IP (DH-911) blocks the account at once, naming EGRESS_IP; entries stop until the trader resumes', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100, env(), true);
    const account = newAccount('Omar Khan');
    const { userId, token } = await liveTrader(h, account);
    const toUser = vi.spyOn(h.server.deps.realtime, 'toUser');
    fake.inject('ip_not_allowed');
    const placedBefore = fake.orderRequests.placements;
    await callSetup(h);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    const knex = h.server.deps.db.knex;
    const blocked = presentBrokerConnection((await findBrokerAccountByUser(knex, userId))!);
    expect(blocked).toMatchObject({ session: 'ip_blocked', connected: false });
    expect(blocked.lastError).toContain(`This server's IP address: ${EGRESS_IP}.`);
    expect(toUser).toHaveBeenCalledWith(
      userId,
      'user:broker',
      expect.objectContaining({ session: 'ip_blocked' }),
    );
    expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('paper');

    await callSetup(h, 10);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    h.server.deps.trading.flattenAll();
    await h.server.deps.trading.idle();

    const resumed = await call(h, 'POST', '/api/user/broker/resume', {}, token);
    expect(resumed.status, resumed.text).toBe(200);
    await callSetup(h, 20);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(3); // the entry and its resting stop
  });
});
