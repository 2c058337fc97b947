// Live trading through Groww, through the real server at the Groww fake. The trader signs up, saves their Groww API
// key and secret, logs in by the daily form (the key's TOTP) over HTTP and switches to Live; one signal then sends a
// protected LIMIT entry to the fake carrying the algo tag and the client order id in `order_reference_id`, and its
// stop rests there as an SL (stop-limit) order that trails by modify. OptionPilot's own exit cancels the resting stop
// before selling; a stop Groww fills by itself closes the trade (its fill pushed on Groww's socket, no order-list
// poll) without another order; after a restart the stop is found resting, not placed again; a position sold by hand
// meanwhile is closed by reconciliation; Groww's 06:00 IST expiry turns the card to Session expired; an order refused for the server's IP
// blocks the account with EGRESS_IP named.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { presentBrokerConnection } from '../../server/src/presenters/broker';
import { findBrokerAccountByUser, listOrders, listTrades } from '../../server/src/db';
import { nextGrowwExpiry } from '../../server/src/brokers/groww';
import { startGrowwFake, type GrowwFake, type GrowwFakeAccount } from '../fakes/groww/server';
import { totp } from '../fakes/angelone/totp';
import {
  callSetup,
  closeHarnesses,
  dataDir,
  MINUTE,
  startHarness,
  T0,
  type Harness,
} from '../integration/scriptedServer';
import { api, goLive, subscribedTrader, untilSettled } from './liveTrading';

const EGRESS_IP = '203.0.113.78';

let accounts = 0;
/** A Groww account of its own per test, so one test's positions never count in another's. */
function newAccount(): GrowwFakeAccount {
  accounts += 1;
  return {
    apiKey: `growwkey${accounts}`,
    apiSecret: `growwsecret${accounts}`,
    totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
    ucc: String(900_000 + accounts),
  };
}

describe('live trading through the Groww adapter', () => {
  let fake: GrowwFake;
  beforeAll(async () => {
    // The scripted day's weekly expiry (6 Jan 2026) and strikes around 24,000; limit orders fill at once.
    fake = await startGrowwFake({ expiry: '2026-01-06', baseStrike: 24_000, autoFillPrice: 100 });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(closeHarnesses);

  const env = () => ({
    GROWW_API_ROOT: fake.url,
    GROWW_LOGIN_URL: fake.endpoints.loginUrl,
    GROWW_WS_ROOT: fake.endpoints.wsRoot,
    GROWW_MASTER_ROOT: fake.url,
    EGRESS_IP,
  });

  /** A subscribed trader with the bot on who connects Groww by the daily form login and goes Live, over HTTP. */
  async function liveTrader(
    h: Harness,
    account: GrowwFakeAccount,
  ): Promise<{ userId: number; token: string }> {
    fake.addAccount(account);
    const { userId, token } = await subscribedTrader(h, `g${account.ucc}`);
    const saved = await api(
      h,
      'POST',
      '/api/user/broker',
      { brokerType: 'groww', apiKey: account.apiKey, apiSecret: account.apiSecret },
      token,
    );
    expect(saved.status, saved.text).toBe(200);
    const loggedIn = await api(
      h,
      'POST',
      '/api/user/broker/login',
      { fields: { totp: totp(account.totpSecret) } },
      token,
    );
    expect(loggedIn.status, loggedIn.text).toBe(200);
    expect(loggedIn.json.broker).toMatchObject({ session: 'connected', accountName: `Groww ${account.ucc}` });
    expect(loggedIn.text).not.toContain(account.apiSecret);
    await goLive(h, userId, token);
    return { userId, token };
  }

  /** A live trader with an open position at the fake: its entry filled and its stop resting. */
  async function openLivePosition(dir = dataDir()) {
    const h = await startHarness(dir, T0 - 1_000, 100, env(), true);
    const account = newAccount();
    const { userId } = await liveTrader(h, account);
    const placedBefore = fake.orderRequests.placements;
    await callSetup(h);
    await untilSettled(
      async () => fake.orderRequests.placements - placedBefore === 2,
      h,
      'the entry and its stop',
    );
    const stop = fake.book.of(account.ucc).find((o) => o.transaction_type === 'SELL');
    expect(stop?.order_status).toBe('TRIGGER_PENDING');
    return { h, userId, account, stopId: stop!.groww_order_id, dir };
  }

  it('sends the entry as a protected LIMIT with the algo tag in its reference; its stop rests as SL and trails by modify', async () => {
    const loginAt = Date.now();
    const { h, userId, account, stopId } = await openLivePosition();
    const knex = h.server.deps.db.knex;
    // The session lasts until Groww's 06:00 IST expiry.
    const expiresAt = (await findBrokerAccountByUser(knex, userId))?.token_expires_at;
    expect([nextGrowwExpiry(loginAt), nextGrowwExpiry(Date.now())]).toContain(expiresAt);

    const [entry, stop] = fake.book.of(account.ucc);
    expect(entry).toMatchObject({
      order_type: 'LIMIT',
      transaction_type: 'BUY',
      product: 'MIS',
      trading_symbol: 'NIFTY2610624000CE',
      order_status: 'EXECUTED',
    });
    // Protected: a BUY limit above the premium it was decided on (100), never a market order.
    expect(entry!.price).toBeGreaterThan(100);
    expect(entry!.order_reference_id).toMatch(/^OPT-[A-Za-z0-9]{16}$/);
    expect(stop).toMatchObject({ order_type: 'SL', transaction_type: 'SELL' });
    expect(stop!.price).toBeLessThan(stop!.trigger_price);
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'open', paper: false });
    const orders = await listOrders(knex, { userId });
    expect(orders.map((o) => o.broker)).toEqual(['groww', 'groww']);
    expect(orders.find((o) => o.broker_order_id === stopId)).toMatchObject({
      purpose: 'stop',
      trade_id: trade!.id,
    });

    // The premium runs 30 above the entry: the stop trails up at the broker by a modify of the resting order.
    const triggerBefore = stop!.trigger_price;
    await h.premium(trade!.entry_price_paise / 100 + 30);
    await untilSettled(
      async () => (fake.book.get(stopId)?.trigger_price ?? 0) > triggerBefore,
      h,
      'the trail',
    );
    expect(fake.book.get(stopId)).toMatchObject({
      order_status: 'TRIGGER_PENDING',
      filled_quantity: 0,
      order_type: 'SL',
    });

    // Every call of this account carried Groww's required headers and its own token.
    const mine = fake.requests.filter((r) => r.path.startsWith('/v1/order/'));
    expect(mine.length).toBeGreaterThan(3);
    for (const r of mine) {
      expect(r.headers['x-api-version']).toBe('1.0');
      expect(r.headers.authorization).toMatch(/^Bearer eyJ/);
    }
  });

  it('an exit decided by OptionPilot takes the resting stop off first, then sells once', async () => {
    const { h, userId, account, stopId } = await openLivePosition();
    const placedBefore = fake.orderRequests.placements;
    const [open] = await listTrades(h.server.deps.db.knex, { userId });
    await h.premium(open!.entry_price_paise / 100 - 25); // below the stop: OptionPilot's own stop exit
    await untilSettled(
      async () => (await listTrades(h.server.deps.db.knex, { userId }))[0]?.status === 'closed',
      h,
      'the exit',
    );
    const [trade] = await listTrades(h.server.deps.db.knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss' });
    expect(fake.book.get(stopId)).toMatchObject({ order_status: 'CANCELLED', filled_quantity: 0 });
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    expect(fake.book.of(account.ucc).at(-1)).toMatchObject({
      transaction_type: 'SELL',
      order_type: 'LIMIT',
      order_status: 'EXECUTED',
    });
  });

  it('a stop Groww fills by itself closes the trade on that fill, pushed on the socket, with no other order', async () => {
    const { h, userId, stopId } = await openLivePosition();
    const placedBefore = fake.orderRequests.placements;
    const listReads = () => fake.requests.filter((r) => r.path === '/v1/order/list').length;
    const readsBefore = listReads();
    const pushesBefore = fake.socket.pushes;
    await fake.fill(stopId, 79.5);
    const knex = h.server.deps.db.knex;
    await untilSettled(
      async () => (await listTrades(knex, { userId }))[0]?.status === 'closed',
      h,
      'the close',
    );
    expect((await listTrades(knex, { userId }))[0]).toMatchObject({
      status: 'closed',
      exit_reason: 'stop_loss',
      exit_price_paise: 7_950,
    });
    expect(fake.orderRequests.placements).toBe(placedBefore);
    // The fill came over the socket: the order list was not read for it.
    expect(fake.socket.pushes).toBeGreaterThan(pushesBefore);
    expect(listReads()).toBe(readsBefore);
  });

  it('after a restart finds the stop still resting at Groww instead of placing another', async () => {
    const { h, userId, stopId, dir } = await openLivePosition();
    await h.server.close();
    const placedBefore = fake.orderRequests.placements;
    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, env(), true);
    await second.server.deps.trading.idle();
    expect(second.server.deps.trading.openPositions().map((p) => p.accountId)).toEqual([String(userId)]);
    expect(fake.orderRequests.placements).toBe(placedBefore);
    await fake.fill(stopId, 79.5);
    const knex = second.server.deps.db.knex;
    await untilSettled(
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

  it('at a restart closes a position the trader sold by hand meanwhile (Groww wins) and says so', async () => {
    const { h, userId, account, stopId, dir } = await openLivePosition();
    const [open] = await listTrades(h.server.deps.db.knex, { userId });
    await h.server.close();
    const entry = fake.book.of(account.ucc).find((o) => o.transaction_type === 'BUY')!;
    fake.placeByHand(account.ucc, {
      tradingSymbol: entry.trading_symbol,
      side: 'SELL',
      quantity: entry.quantity,
      price: 90,
    });
    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, env(), true);
    const knex = second.server.deps.db.knex;
    await untilSettled(
      async () => (await listTrades(knex, { userId }))[0]?.status === 'closed',
      second,
      'the check',
    );
    expect((await listTrades(knex, { userId }))[0]).toMatchObject({
      id: open!.id,
      status: 'closed',
      exit_reason: 'broker',
    });
    expect(fake.book.get(stopId)?.order_status).toBe('CANCELLED');
    expect(second.server.deps.trading.openPositions()).toEqual([]);
    const row = await findBrokerAccountByUser(knex, userId);
    expect(presentBrokerConnection(row!).positionCheck?.differences).toEqual([
      {
        symbol: 'NIFTY06JAN2624000CE',
        optionPilot: entry.quantity,
        broker: 0,
        action: 'closed',
        closedTradeIds: [open!.id],
      },
    ]);
  });

  it("Groww's 06:00 IST expiry ends the session: the card says Session expired with the fixed message", async () => {
    const { h, userId } = await openLivePosition();
    const knex = h.server.deps.db.knex;
    const row = await findBrokerAccountByUser(knex, userId);
    expect(presentBrokerConnection(row!, { now: row!.token_expires_at!, publicUrl: '' }).session).toBe(
      'expired',
    );
    // Groww refuses the token from then on: the adapter's next call (the order-list poll) marks the session ended.
    fake.expireSessions();
    await untilSettled(
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

  it('an order refused for the server IP blocks the account at once, naming EGRESS_IP; entries stop until the trader resumes', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100, env(), true);
    const { userId, token } = await liveTrader(h, newAccount());
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

    const resumed = await api(h, 'POST', '/api/user/broker/resume', {}, token);
    expect(resumed.status, resumed.text).toBe(200);
    expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('live');
    await callSetup(h, 20);
    await untilSettled(
      async () => fake.orderRequests.placements - placedBefore === 3,
      h,
      'the entry and its resting stop',
    );
  });
});
