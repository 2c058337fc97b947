// Offer codes at checkout, through the real routes: the quote and the order price the discount the same way, a
// code that does not apply is refused naming offerCode and creates nothing, an offer's max users holds under 20
// concurrent checkouts, and the payment counts the use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOffer, listPayments } from '../db';
import { testDialects } from '../db/testing';
import { createAccount, mintToken } from '../testing/accounts';
import { startTestServer, type TestServer } from '../testing/server';
import { OFFER_HOLD_MS } from './offers';

const NOW = Date.UTC(2026, 0, 6, 6, 0);
const DAY = 86_400_000;

describe.each(testDialects())('offer codes at checkout (%s)', (dialect) => {
  let t: TestServer;
  interface Caller {
    id: number;
    token: string;
  }
  let traders: Caller[];
  const db = () => t.server.deps.db.knex;
  const orders = async () => db()('payment_orders').select('user_id', 'offer_id', 'discount_paise');

  beforeAll(async () => {
    t = await startTestServer({ dialect });
    t.clock.set(NOW);
    traders = [];
    for (let i = 0; i < 21; i += 1) {
      const id = await createAccount(t, `offer${i}@example.com`);
      traders.push({ id, token: (await mintToken(t, id)).token });
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('quotes and orders the discounted price, GST on the taxable value, and the payment claims the use', async () => {
    const offer = await insertOffer(
      db(),
      { name: 'Diwali', code: 'DIWALI10', discount_bp: 1000, max_users: 50 },
      NOW,
    );
    const [buyer] = traders as [Caller];
    const quote = await t.request('POST', '/api/payment/quote', {
      token: buyer.token,
      body: { offerCode: ' diwali10 ' },
    });
    expect(quote.status).toBe(200);
    // 4,999.00 − 10 % = 4,499.10; GST 18 % of it = 809.84 (nearest paisa).
    expect(quote.json).toMatchObject({
      listPricePaise: 499_900,
      plan: { pricePaise: 449_910, gstPaise: 80_984, totalPaise: 530_894 },
      offer: { code: 'DIWALI10', name: 'Diwali', discountPercent: 10, discountPaise: 49_990 },
    });

    const order = await t.request('POST', '/api/payment/create-order', {
      token: buyer.token,
      body: { offerCode: 'DIWALI10' },
    });
    expect(order.status).toBe(200);
    expect(order.json).toMatchObject({ amount: 530_894, offer: { code: 'DIWALI10' } });
    const checkout = await t.request('POST', '/api/payment/test-checkout', {
      token: buyer.token,
      body: { orderId: order.json.id },
    });
    const verified = await t.request('POST', '/api/payment/verify', {
      token: buyer.token,
      body: checkout.json,
    });
    expect(verified.status).toBe(200);
    const [payment] = await listPayments(db(), { userId: buyer.id });
    expect(payment).toMatchObject({ amount_paise: 530_894 });
    expect(await db()('offers').where({ id: offer.id }).first()).toMatchObject({ used_count: 1 });
  });

  it.each([
    ['an unknown code', 'NOSUCH', /no offer "NOSUCH"/],
    ['an expired offer', 'OLD', /expired/],
    ['an inactive offer', 'OFF', /no longer available/],
    ['an offer not started', 'SOON', /not started/],
    ['a malformed code', 'a!', /offerCode must be 3 to 40/],
  ])('refuses %s naming offerCode and creates no order', async (_, code, message) => {
    if ((await db()('offers').where({ code: 'OLD' }).first()) === undefined) {
      await insertOffer(db(), { name: 'Old', code: 'OLD', valid_until_at: NOW - DAY }, NOW - 30 * DAY);
      await insertOffer(db(), { name: 'Off', code: 'OFF', active: false }, NOW);
      await insertOffer(db(), { name: 'Soon', code: 'SOON', valid_from_at: NOW + DAY }, NOW);
    }
    const before = (await orders()).length;
    for (const path of ['/api/payment/quote', '/api/payment/create-order']) {
      const res = await t.request('POST', path, { token: traders[1]?.token, body: { offerCode: code } });
      expect(res.status).toBe(400);
      expect(res.json.field).toBe('offerCode');
      expect(res.json.message).toMatch(message);
    }
    expect(await orders()).toHaveLength(before);
  });

  it('holds max users under 20 concurrent checkouts: unpaid orders hold their use until the hold lapses', async () => {
    const offer = await insertOffer(
      db(),
      { name: 'Five', code: 'FIVE', discount_bp: 500, max_users: 5 },
      NOW,
    );
    const buyers = traders.slice(1, 21);
    const results = await Promise.all(
      buyers.map((b) =>
        t.request('POST', '/api/payment/create-order', { token: b.token, body: { offerCode: 'FIVE' } }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 400);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(r.json).toMatchObject({ field: 'offerCode' });
    expect(refused[0]?.json.message).toMatch(/fully used/);
    const held = (await orders()).filter((o) => o.offer_id === offer.id);
    expect(new Set(held.map((o) => o.user_id)).size).toBe(5);

    // A buyer holding a use may retry without counting twice.
    const holder = buyers[results.findIndex((r) => r.status === 200)] as Caller;
    const retry = await t.request('POST', '/api/payment/create-order', {
      token: holder.token,
      body: { offerCode: 'FIVE' },
    });
    expect(retry.status).toBe(200);

    // Unpaid orders stop holding after the hold: the next buyer gets the offer again.
    t.clock.set(NOW + OFFER_HOLD_MS + 1);
    const loser = buyers[results.findIndex((r) => r.status === 400)] as Caller;
    const later = await t.request('POST', '/api/payment/create-order', {
      token: loser.token,
      body: { offerCode: 'FIVE' },
    });
    expect(later.status).toBe(200);
    t.clock.set(NOW);
  });
});
