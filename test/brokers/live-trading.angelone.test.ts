// Live trading through Angel One, through the real server at the Angel fake. The trader signs up, saves their
// SmartAPI key, logs in by the daily form (client code, MPIN, TOTP) over HTTP and switches to Live; one signal
// then sends a protected LIMIT entry to the fake, tagged with the algo id, and its stop rests there as a stop-limit
// that trails by modify. OptionPilot's own exit cancels the resting stop before selling; a stop Angel fills by
// itself closes the trade without another order; after a restart the stop is found resting, not placed again; a
// position sold by hand meanwhile is closed by reconciliation; Angel's midnight logout turns the card to Session
// expired; an order refused for the server's IP blocks the account with EGRESS_IP named.
// The scenarios every broker shares run here from ./liveScenarios.ts; this file adds the broker's own wire format.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextAngelExpiry } from '../../server/src/brokers/angelone';
import { findBrokerAccountByUser, listOrders, listTrades } from '../../server/src/db';
import type { AngelFakeOrder } from '../fakes/angelone/orderBook';
import { startAngelFake, type AngelFake, type AngelFakeAccount } from '../fakes/angelone/server';
import { totp } from '../fakes/angelone/totp';
import { closeHarnesses, type Harness } from '../integration/scriptedServer';
import { liveTradingSuite, type FakeOrder } from './liveScenarios';
import { api, untilSettled } from './waiting';

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

  const STATES: Record<string, FakeOrder['state']> = {
    'trigger pending': 'resting',
    complete: 'filled',
    cancelled: 'cancelled',
  };
  const view = (o: AngelFakeOrder): FakeOrder => ({
    id: o.orderid,
    side: o.transactiontype,
    limit: o.ordertype === 'LIMIT',
    state: STATES[o.status] ?? 'other',
    quantity: o.quantity,
    filledQuantity: o.filledshares,
  });

  const live = liveTradingSuite<AngelFakeAccount>({
    brokerType: 'angelone',
    name: 'Angel',
    egressIp: EGRESS_IP,
    fake: () => fake,
    env: () => ({
      ANGELONE_API_ROOT: fake.url,
      ANGELONE_LOGIN_URL: `${fake.url}/publisher-login`,
      ANGELONE_WS_ROOT: fake.wsUrl,
      ANGELONE_MASTER_ROOT: fake.url,
      EGRESS_IP,
    }),
    newAccount(name) {
      const account = newAccount(name);
      fake.addAccount(account);
      return account;
    },
    // The trader saves the SmartAPI key, then logs in by the daily form: client code, MPIN and TOTP.
    async connect(h: Harness, account, { token }) {
      const saved = await api(
        h,
        'POST',
        '/api/user/broker',
        { brokerType: 'angelone', apiKey: account.apiKey, apiSecret: 'angel-secret-key' },
        token,
      );
      expect(saved.status, saved.text).toBe(200);
      const loggedIn = await api(
        h,
        'POST',
        '/api/user/broker/login',
        { fields: { clientCode: account.clientCode, mpin: account.mpin, totp: totp(account.totpSecret) } },
        token,
      );
      expect(loggedIn.status, loggedIn.text).toBe(200);
      expect(loggedIn.json.broker).toMatchObject({ session: 'connected', accountName: account.name });
    },
    orders: (account) => fake.book.ordersOf(account.clientCode).map(view),
    order(id) {
      const found = fake.book.get(id);
      return found === undefined ? undefined : view(found.order);
    },
    sellByHand(account, entryId) {
      const entry = fake.book.get(entryId)!.order;
      fake.placeByHand(account.clientCode, {
        symbolToken: entry.symboltoken,
        side: 'SELL',
        quantity: entry.quantity,
        price: 90,
      });
    },
    titles: { sessionEnd: "Angel's midnight logout ends the session" },
  });
  const { openLivePosition } = live;

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
    await untilSettled(
      async () => (fake.book.get(stopId)?.order.triggerprice ?? 0) > triggerBefore,
      h,
      'the trail',
    );
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

  live.sharedScenarios();
});
