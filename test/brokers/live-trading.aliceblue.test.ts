// Live trading through Alice Blue, through the real server at the Alice Blue fake. The trader signs up, saves their
// ANT app code and secret, connects through ANT's vendor login (a redirect carrying only `authCode` and `userId`)
// and switches to Live; one signal then sends a protected LIMIT entry to the fake, tagged with the algo id, and its
// stop rests there as a stop-limit (`SL`) that trails by modify. OptionPilot's own exit cancels the resting stop
// before selling; a stop ANT fills by itself closes the trade on the socket's order message; after a restart the
// stop is found resting, not placed again; a position sold by hand meanwhile is closed by reconciliation; the end
// of ANT's session turns the card to Session expired; an order refused for the server's IP blocks the account with
// EGRESS_IP named.
// The scenarios every broker shares run here from ./liveScenarios.ts; this file adds the broker's own wire format.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALICE_SESSION_MS } from '../../server/src/brokers/aliceblue/login';
import { findBrokerAccountByUser, listOrders, listTrades } from '../../server/src/db';
import type { AliceFakeOrder } from '../fakes/aliceblue/orderBook';
import { startAliceFake, type AliceFake, type AliceFakeAccount } from '../fakes/aliceblue/server';
import { closeHarnesses, type Harness } from '../integration/scriptedServer';
import { liveTradingSuite, type FakeOrder } from './liveScenarios';
import { api, untilSettled } from './waiting';

const EGRESS_IP = '203.0.113.78';

let accounts = 0;
/** An ANT account of its own per test, so one test's positions never count in another's. */
function newAccount(name: string): AliceFakeAccount {
  accounts += 1;
  return {
    userId: `AB${5_000 + accounts}`,
    appCode: `antapp${accounts}`,
    apiSecret: `ant-secret-${accounts}`,
    name,
    redirectUrl: 'http://127.0.0.1:9/broker/aliceblue/callback',
  };
}

describe('live trading through the Alice Blue adapter', () => {
  let fake: AliceFake;
  beforeAll(async () => {
    // The scripted day's weekly expiry (6 Jan 2026) and strikes around 24,000; limit orders fill at once.
    fake = await startAliceFake({ expiry: '2026-01-06', baseStrike: 24_000, autoFillPrice: 100 });
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
  const view = (o: AliceFakeOrder): FakeOrder => ({
    id: o.Nstordno,
    side: o.Trantype,
    limit: o.Prctype === 'L',
    state: STATES[o.Status] ?? 'other',
    quantity: o.Qty,
    filledQuantity: o.Fillshares,
  });

  const live = liveTradingSuite<AliceFakeAccount>({
    brokerType: 'aliceblue',
    name: 'ANT',
    egressIp: EGRESS_IP,
    fake: () => fake,
    env: () => ({
      ALICEBLUE_API_ROOT: fake.url,
      ALICEBLUE_LOGIN_URL: `${fake.url}/`,
      ALICEBLUE_WS_ROOT: fake.endpoints.wsRoot,
      ALICEBLUE_MASTER_ROOT: fake.url,
      EGRESS_IP,
    }),
    newAccount(name) {
      const account = newAccount(name);
      fake.addAccount(account);
      return account;
    },
    // The trader saves the ANT app code and secret, then logs in at ANT, which redirects back with an authCode.
    async connect(h: Harness, account, { token }) {
      const saved = await api(
        h,
        'POST',
        '/api/user/broker',
        { brokerType: 'aliceblue', apiKey: account.appCode, apiSecret: account.apiSecret },
        token,
      );
      expect(saved.status, saved.text).toBe(200);
      const connect = await api(h, 'POST', '/api/user/broker/connect', {}, token);
      expect(connect.status, connect.text).toBe(200);
      const page = await fetch(connect.json.loginUrl as string, { redirect: 'manual' });
      const back = new URL(page.headers.get('location') ?? '');
      const loggedIn = await api(
        h,
        'POST',
        '/api/user/broker/callback',
        { broker: 'aliceblue', query: Object.fromEntries(back.searchParams) },
        token,
      );
      expect(loggedIn.status, loggedIn.text).toBe(200);
      expect(loggedIn.json.broker).toMatchObject({ session: 'connected', accountName: account.name });
    },
    orders: (account) => fake.book.ordersOf(account.userId).map(view),
    order(id) {
      const order = fake.book.get(id);
      return order === undefined ? undefined : view(order);
    },
    sellByHand(account, entryId) {
      const entry = fake.book.get(entryId)!;
      fake.placeByHand(account.userId, { token: entry.token, side: 'SELL', quantity: entry.Qty, price: 90 });
    },
    titles: { sessionEnd: "the end of ANT's session", stopFill: 'its order message' },
  });
  const { openLivePosition } = live;

  it('sends the entry as a protected LIMIT with the algo tag; its stop rests as a stop-limit and trails by modify', async () => {
    const loginAt = Date.now();
    const { h, userId, account, stopId } = await openLivePosition('Asha Rao');
    const knex = h.server.deps.db.knex;
    // The session lasts 24 hours from the login.
    const row = await findBrokerAccountByUser(knex, userId);
    expect(row?.token_expires_at).toBeGreaterThanOrEqual(loginAt + ALICE_SESSION_MS);
    expect(row?.token_expires_at).toBeLessThanOrEqual(Date.now() + ALICE_SESSION_MS);

    const [entry, stop] = fake.book.ordersOf(account.userId);
    expect(entry).toMatchObject({
      Prctype: 'L',
      Trantype: 'BUY',
      Pcode: 'MIS',
      Trsym: 'NIFTY06JAN26C24000',
      Status: 'complete',
    });
    // Protected: a BUY limit above the premium it was decided on (100), never a market order.
    expect(entry!.Prc).toBeGreaterThan(100);
    expect(entry!.remarks).toMatch(/^[A-Za-z0-9]{1,4}[A-Za-z0-9]{16}$/);
    expect(stop).toMatchObject({ Prctype: 'SL', Trantype: 'SELL' });
    // A stop-limit sells no lower than a few percent under its trigger.
    expect(stop!.Prc).toBeLessThan(stop!.Trgprc);
    const [trade] = await listTrades(knex, { userId });
    expect(trade).toMatchObject({ status: 'open', paper: false });
    expect(Math.round(stop!.Trgprc * 100)).toBe(Math.floor(trade!.stop_loss_paise / 5) * 5);
    const orders = await listOrders(knex, { userId });
    expect(orders.map((o) => o.broker)).toEqual(['aliceblue', 'aliceblue']);
    expect(orders.find((o) => o.broker_order_id === stopId)).toMatchObject({
      purpose: 'stop',
      trade_id: trade!.id,
    });

    // The premium runs 30 above the entry: the stop trails up at the broker by a modify of the resting order.
    const triggerBefore = stop!.Trgprc;
    await h.premium(trade!.entry_price_paise / 100 + 30);
    await untilSettled(async () => (fake.book.get(stopId)?.Trgprc ?? 0) > triggerBefore, h, 'the trail');
    expect(fake.book.get(stopId)).toMatchObject({ Status: 'trigger pending', Fillshares: 0 });
    expect(fake.book.get(stopId)!.Trgprc).toBeGreaterThanOrEqual(trade!.entry_price_paise / 100);
  });

  live.sharedScenarios();
});
