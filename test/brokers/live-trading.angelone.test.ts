// Live trading through Angel One, through the real server at the Angel fake. The trader signs up, saves their
// SmartAPI key, logs in by the daily form (client code, MPIN, TOTP) over HTTP and switches to Live; one signal
// then sends a protected LIMIT entry to the fake, tagged with the algo id, and its stop rests there as a stop-limit
// that trails by modify. OptionPilot's own exit cancels the resting stop before selling; a stop Angel fills by
// itself closes the trade without another order; after a restart the stop is found resting, not placed again; a
// position sold by hand meanwhile is closed by reconciliation; Angel's midnight logout turns the card to Session
// expired; an order refused for the server's IP blocks the account with EGRESS_IP named.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { presentBrokerConnection } from '../../server/src/presenters/broker';
import {
  findBrokerAccountByUser,
  listOrders,
  listTrades,
  saveTradingSettings,
  updateUser,
} from '../../server/src/db';
import { nextAngelExpiry } from '../../server/src/brokers/angelone';
import { registration } from '../../server/src/testing/server';
import { startAngelFake, type AngelFake, type AngelFakeAccount } from '../fakes/angelone/server';
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

const EGRESS_IP = '203.0.113.77';

let accounts = 0;
/** An Angel account of its own per test, so one test's positions never count in another's. */
function newAccount(name: string): AngelFakeAccount {
  accounts += 1;
  return {
    apiKey: `angelkey${accounts}`,
    clientCode: `T${100_000 + accounts}`,
    mpin: '2468',
    totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
    name,
  };
}

async function call(
  h: Harness,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const res = await fetch(`${h.server.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text || '{}') as Record<string, unknown>, text };
}

describe('live trading through the Angel One adapter', () => {
  let fake: AngelFake;
  beforeAll(async () => {
    // The scripted day's weekly expiry (6 Jan 2026) and strikes around 24,000; limit orders fill at once.
    fake = await startAngelFake({ expiry: '2026-01-06', baseStrike: 24_000, autoFillPrice: 100 });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(closeHarnesses);

  const env = (extra: Record<string, string> = {}) => ({
    ANGELONE_API_ROOT: fake.url,
    ANGELONE_LOGIN_URL: `${fake.url}/publisher-login`,
    ANGELONE_WS_ROOT: fake.wsUrl,
    ANGELONE_MASTER_ROOT: fake.url,
    EGRESS_IP,
    ...extra,
  });

  /** A subscribed trader with the bot on who connects Angel One by the daily form login and goes Live, all over HTTP. */
  async function liveTrader(
    h: Harness,
    account: AngelFakeAccount,
  ): Promise<{ userId: number; token: string }> {
    fake.addAccount(account);
    const registered = await call(h, 'POST', '/api/auth/register', registration(account.clientCode));
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
      { brokerType: 'angelone', apiKey: account.apiKey, apiSecret: 'angel-secret-key' },
      token,
    );
    expect(saved.status, saved.text).toBe(200);
    const loggedIn = await call(
      h,
      'POST',
      '/api/user/broker/login',
      { fields: { clientCode: account.clientCode, mpin: account.mpin, totp: totp(account.totpSecret) } },
      token,
    );
    expect(loggedIn.status, loggedIn.text).toBe(200);
    expect(loggedIn.json.broker).toMatchObject({ session: 'connected', accountName: account.name });
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
    const stop = fake.book.ordersOf(account.clientCode).find((o) => o.transactiontype === 'SELL');
    expect(stop?.status).toBe('trigger pending');
    return { h, userId, account, stopId: stop!.orderid, dir };
  }

  async function until(check: () => Promise<boolean>, h: Harness, what: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
      await h.server.deps.trading.idle();
    }
  }

  it('sends the entry as a protected LIMIT with the algo tag; its stop rests as a stop-limit and trails by modify; the headers carry EGRESS_IP', async () => {
    const loginAt = Date.now();
    const { h, userId, account, stopId } = await openLivePosition('Asha Rao');
    const knex = h.server.deps.db.knex;
    // The session lasts until Angel's midnight logout.
    const row = await findBrokerAccountByUser(knex, userId);
    expect([nextAngelExpiry(loginAt), nextAngelExpiry(Date.now())]).toContain(row?.token_expires_at);

    const [entry, stop] = fake.book.ordersOf(account.clientCode);
    expect(entry).toMatchObject({
      variety: 'NORMAL',
      ordertype: 'LIMIT',
      transactiontype: 'BUY',
      producttype: 'INTRADAY',
      duration: 'DAY',
      tradingsymbol: 'NIFTY06JAN2624000CE',
      status: 'complete',
    });
    // Protected: a BUY limit above the premium it was decided on (100), never a market order.
    expect(entry!.price).toBeGreaterThan(100);
    expect(entry!.ordertag).toMatch(/^OPT[A-Za-z0-9]{16}$/);
    expect(stop).toMatchObject({ variety: 'STOPLOSS', ordertype: 'STOPLOSS_LIMIT', transactiontype: 'SELL' });
    // A stop-limit sells no lower than a few percent under its trigger.
    expect(stop!.price).toBeLessThan(stop!.triggerprice);
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'open', paper: false });
    expect(Math.round(stop!.triggerprice * 100)).toBe(Math.floor(trade!.stop_loss_paise / 5) * 5);
    const orders = await listOrders(knex, { userId });
    expect(orders.map((o) => o.broker)).toEqual(['angelone', 'angelone']);
    expect(orders.find((o) => o.broker_order_id === stopId)).toMatchObject({
      purpose: 'stop',
      sequence: 1,
      trade_id: trade!.id,
    });

    // The premium runs 30 above the entry: the stop trails up at the broker by a modify of the resting order.
    const triggerBefore = stop!.triggerprice;
    await h.premium(trade!.entry_price_paise / 100 + 30);
    await until(async () => (fake.book.get(stopId)?.order.triggerprice ?? 0) > triggerBefore, h, 'the trail');
    expect(fake.book.get(stopId)?.order).toMatchObject({ status: 'trigger pending', filledshares: 0 });
    expect(fake.book.get(stopId)!.order.triggerprice).toBeGreaterThanOrEqual(trade!.entry_price_paise / 100);

    // Every request of this account carried the server's static IP in the headers Angel requires.
    const mine = fake.requests.filter((r) => r.headers['x-privatekey'] === account.apiKey);
    expect(mine.length).toBeGreaterThan(3);
    for (const r of mine) {
      expect(r.headers['x-clientpublicip']).toBe(EGRESS_IP);
      expect(r.headers['x-clientlocalip']).toBe(EGRESS_IP);
      expect(r.headers['x-usertype']).toBe('USER');
      expect(r.headers['x-sourceid']).toBe('WEB');
      expect(r.headers['x-macaddress']).toMatch(/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i);
    }
  });

  it('an exit decided by OptionPilot takes the resting stop off first, then sells once', async () => {
    const { h, userId, account, stopId } = await openLivePosition('Ravi Iyer');
    const placedBefore = fake.orderRequests.placements;
    const [open] = await listTrades(h.server.deps.db.knex, { userId });
    await h.premium(open!.entry_price_paise / 100 - 25); // below the stop: OptionPilot's own stop exit
    const [trade] = await listTrades(h.server.deps.db.knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss' });
    expect(fake.book.get(stopId)?.order.status).toBe('cancelled');
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    expect(fake.book.ordersOf(account.clientCode).at(-1)).toMatchObject({
      transactiontype: 'SELL',
      ordertype: 'LIMIT',
      status: 'complete',
    });
    expect(fake.book.get(stopId)?.order.filledshares).toBe(0);
  });

  it('a stop Angel fills by itself closes the trade on that fill, with no other order', async () => {
    const { h, userId, stopId } = await openLivePosition('Kavya Nair');
    const placedBefore = fake.orderRequests.placements;
    await fake.fill(stopId, 79.5);
    const knex = h.server.deps.db.knex;
    await until(async () => (await listTrades(knex, { userId }))[0]?.status === 'closed', h, 'the close');
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss', exit_price_paise: 7_950 });
    expect(fake.orderRequests.placements).toBe(placedBefore);
  });

  it('after a restart finds the stop still resting at Angel instead of placing another', async () => {
    const { h, userId, stopId, dir } = await openLivePosition('Meera Das');
    await h.server.close();
    const placedBefore = fake.orderRequests.placements;
    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, env(), true);
    await second.server.deps.trading.idle();
    expect(second.server.deps.trading.openPositions().map((p) => p.accountId)).toEqual([String(userId)]);
    expect(fake.orderRequests.placements).toBe(placedBefore);
    // The stop the first process placed still protects the position: Angel filling it closes the trade.
    await fake.fill(stopId, 79.5);
    const knex = second.server.deps.db.knex;
    await until(
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

  it('at a restart closes a position the trader sold by hand meanwhile (Angel wins) and says so', async () => {
    const { h, userId, account, stopId, dir } = await openLivePosition('Dev Menon');
    const knex = h.server.deps.db.knex;
    const [open] = await listTrades(knex, { userId });
    await h.server.close();
    // While OptionPilot is down the trader sells the position in Angel's app, leaving OptionPilot's stop resting.
    const entry = fake.book.ordersOf(account.clientCode).find((o) => o.transactiontype === 'BUY')!;
    fake.placeByHand(account.clientCode, {
      symbolToken: entry.symboltoken,
      side: 'SELL',
      quantity: entry.quantity,
      price: 90,
    });

    const second = await startHarness(dir, T0 + 10 * MINUTE, 100, env(), true);
    const secondKnex = second.server.deps.db.knex;
    await until(
      async () => (await listTrades(secondKnex, { userId }))[0]?.status === 'closed',
      second,
      'the check',
    );
    const [closed] = await listTrades(secondKnex, { userId });
    expect(closed).toMatchObject({ id: open!.id, status: 'closed', exit_reason: 'broker' });
    // OptionPilot's stop came off before the record closed: it can never sell a position that is gone.
    expect(fake.book.get(stopId)?.order.status).toBe('cancelled');
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

  it("Angel's midnight logout ends the session: the card says Session expired with the fixed message", async () => {
    const { h, userId } = await openLivePosition('Nisha Pillai');
    const knex = h.server.deps.db.knex;
    const row = await findBrokerAccountByUser(knex, userId);
    // At the stored expiry (00:00 IST) the card turns expired by the clock alone…
    expect(presentBrokerConnection(row!, { now: row!.token_expires_at!, publicUrl: '' }).session).toBe(
      'expired',
    );
    // …and Angel refuses the token from then on: the adapter's next call marks the session ended.
    fake.expireSessions();
    await until(
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
    const account = newAccount('Omar Khan');
    const { userId, token } = await liveTrader(h, account);
    const toUser = vi.spyOn(h.server.deps.realtime, 'toUser');

    // Angel answers the entry with AG7002: this server's IP is not the app's registered static IP.
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

    // The next signal sends nothing to Angel: the account trades paper until the trader acts.
    await callSetup(h, 10);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(1);
    expect((await listOrders(knex, { userId })).map((o) => o.broker)).toEqual(['paper', 'angelone']);
    h.server.deps.trading.flattenAll();
    await h.server.deps.trading.idle();

    // The trader registers the IP in the SmartAPI app and resumes: the next entry goes to Angel again.
    const resumed = await call(h, 'POST', '/api/user/broker/resume', {}, token);
    expect(resumed.status, resumed.text).toBe(200);
    expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('live');
    await callSetup(h, 20);
    await h.server.deps.trading.idle();
    expect(fake.orderRequests.placements - placedBefore).toBe(3); // the entry and its resting stop
  });
});
