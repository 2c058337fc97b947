// Live trading through Dhan, through the real server at the Dhan fake. The trader signs up, saves their Dhan key,
// logs in with a pasted access token over HTTP and switches to Live; one signal then sends a protected LIMIT entry
// by security id, its correlationId carrying the algo tag and the client order id, and its stop rests at Dhan as a
// STOP_LOSS (stop-limit) that trails by modify. OptionPilot's own exit cancels the resting stop before selling; a
// stop Dhan fills by itself closes the trade without another order; after a restart the stop is found resting, not
// placed again; a position sold by hand meanwhile is closed by reconciliation; the token's end (DH-901) turns the
// card to Session expired; an order refused for the server's IP (DH-911) blocks the account with EGRESS_IP named.
// The scenarios every broker shares run here from ./liveScenarios.ts; this file adds the broker's own wire format.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientOrderIdOfTag } from '../../server/src/brokers/orderTag';
import { findBrokerAccountByUser, listOrders, listTrades } from '../../server/src/db';
import { startDhanFake, type DhanFake, type DhanFakeAccount } from '../fakes/dhan/server';
import type { DhanFakeOrder } from '../fakes/dhan/orderBook';
import { closeHarnesses, type Harness } from '../integration/scriptedServer';
import { liveTradingSuite, type FakeOrder } from './liveScenarios';
import { api, untilSettled } from './waiting';

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

  const STATES: Record<string, FakeOrder['state']> = {
    PENDING: 'resting',
    TRADED: 'filled',
    CANCELLED: 'cancelled',
  };
  const view = (o: DhanFakeOrder): FakeOrder => ({
    id: o.orderId,
    side: o.transactionType,
    limit: o.orderType === 'LIMIT',
    state: STATES[o.orderStatus] ?? 'other',
    quantity: o.quantity,
    filledQuantity: o.filledQty,
  });

  const live = liveTradingSuite<DhanFakeAccount>({
    brokerType: 'dhan',
    name: 'Dhan',
    egressIp: EGRESS_IP,
    fake: () => fake,
    env: () => ({
      DHAN_API_ROOT: fake.url,
      DHAN_LOGIN_URL: fake.endpoints.loginUrl,
      DHAN_WS_ROOT: fake.endpoints.wsRoot,
      DHAN_MASTER_ROOT: fake.url,
      EGRESS_IP,
    }),
    newAccount(name) {
      const account = newAccount(name);
      fake.addAccount(account);
      return account;
    },
    // The trader saves the client id and app id with the app secret, then pastes an access token.
    async connect(h: Harness, account, { token }) {
      const saved = await api(
        h,
        'POST',
        '/api/user/broker',
        { brokerType: 'dhan', apiKey: `${account.clientId}:${account.appId}`, apiSecret: account.appSecret },
        token,
      );
      expect(saved.status, saved.text).toBe(200);
      const loggedIn = await api(
        h,
        'POST',
        '/api/user/broker/login',
        { fields: { clientId: account.clientId, accessToken: fake.issueToken(account.clientId) } },
        token,
      );
      expect(loggedIn.status, loggedIn.text).toBe(200);
      expect(loggedIn.json.broker).toMatchObject({ session: 'connected' });
    },
    orders: (account) => fake.book.ordersOf(account.clientId).map(view),
    order(id) {
      const order = fake.book.get(id);
      return order === undefined ? undefined : view(order);
    },
    sellByHand(account, entryId) {
      const entry = fake.book.get(entryId)!;
      fake.placeByHand(account.clientId, {
        securityId: entry.securityId,
        side: 'SELL',
        quantity: entry.quantity,
        price: 90,
      });
    },
    titles: { sessionEnd: "the token's end (DH-901) ends the session", ipRefusal: 'DH-911' },
  });
  const { openLivePosition } = live;

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
    await untilSettled(
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

  live.sharedScenarios();
});
