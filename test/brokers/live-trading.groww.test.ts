// Live trading through Groww, through the real server at the Groww fake. The trader signs up, saves their Groww API
// key and secret, logs in by the daily form (the key's TOTP) over HTTP and switches to Live; one signal then sends a
// protected LIMIT entry to the fake carrying the algo tag and the client order id in `order_reference_id`, and its
// stop rests there as an SL (stop-limit) order that trails by modify. OptionPilot's own exit cancels the resting stop
// before selling; a stop Groww fills by itself closes the trade (its fill pushed on Groww's socket, no order-list
// poll) without another order; after a restart the stop is found resting, not placed again; a position sold by hand
// meanwhile is closed by reconciliation; Groww's 06:00 IST expiry turns the card to Session expired; an order refused for the server's IP
// blocks the account with EGRESS_IP named.
// The scenarios every broker shares run here from ./liveScenarios.ts; this file adds the broker's own wire format.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextGrowwExpiry } from '../../server/src/brokers/groww';
import { findBrokerAccountByUser, listOrders, listTrades } from '../../server/src/db';
import { totp } from '../fakes/angelone/totp';
import type { GrowwFakeOrder } from '../fakes/groww/orderBook';
import { startGrowwFake, type GrowwFake, type GrowwFakeAccount } from '../fakes/groww/server';
import { closeHarnesses, type Harness } from '../integration/scriptedServer';
import { liveTradingSuite, type FakeOrder } from './liveScenarios';
import { api, untilSettled } from './waiting';

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

  const STATES: Record<string, FakeOrder['state']> = {
    TRIGGER_PENDING: 'resting',
    EXECUTED: 'filled',
    CANCELLED: 'cancelled',
  };
  const view = (o: GrowwFakeOrder): FakeOrder => ({
    id: o.groww_order_id,
    side: o.transaction_type,
    limit: o.order_type === 'LIMIT',
    state: STATES[o.order_status] ?? 'other',
    quantity: o.quantity,
    filledQuantity: o.filled_quantity,
  });

  const live = liveTradingSuite<GrowwFakeAccount>({
    brokerType: 'groww',
    name: 'Groww',
    egressIp: EGRESS_IP,
    fake: () => fake,
    env: () => ({
      GROWW_API_ROOT: fake.url,
      GROWW_LOGIN_URL: fake.endpoints.loginUrl,
      GROWW_WS_ROOT: fake.endpoints.wsRoot,
      GROWW_MASTER_ROOT: fake.url,
      EGRESS_IP,
    }),
    newAccount() {
      const account = newAccount();
      fake.addAccount(account);
      return account;
    },
    // The trader saves the API key and secret, then logs in by the daily form: the key's TOTP.
    async connect(h: Harness, account, { token }) {
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
      expect(loggedIn.json.broker).toMatchObject({
        session: 'connected',
        accountName: `Groww ${account.ucc}`,
      });
      expect(loggedIn.text).not.toContain(account.apiSecret);
    },
    orders: (account) => fake.book.of(account.ucc).map(view),
    order(id) {
      const order = fake.book.get(id);
      return order === undefined ? undefined : view(order);
    },
    sellByHand(account, entryId) {
      const entry = fake.book.get(entryId)!;
      fake.placeByHand(account.ucc, {
        tradingSymbol: entry.trading_symbol,
        side: 'SELL',
        quantity: entry.quantity,
        price: 90,
      });
    },
    titles: {
      sessionEnd: "Groww's 06:00 IST expiry ends the session",
      stopFill: 'that fill, pushed on the socket',
    },
    // The fill comes over Groww's order socket: the order list is not read for it.
    watchStopFill() {
      const listReads = () => fake.requests.filter((r) => r.path === '/v1/order/list').length;
      const readsBefore = listReads();
      const pushesBefore = fake.socket.pushes;
      return () => {
        expect(fake.socket.pushes).toBeGreaterThan(pushesBefore);
        expect(listReads()).toBe(readsBefore);
      };
    },
  });
  const { openLivePosition } = live;

  it('sends the entry as a protected LIMIT with the algo tag in its reference; its stop rests as SL and trails by modify', async () => {
    const loginAt = Date.now();
    const { h, userId, account, stopId } = await openLivePosition('Asha Rao');
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

  live.sharedScenarios();
});
