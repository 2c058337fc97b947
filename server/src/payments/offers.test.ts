// Offer codes at checkout, through the real routes: the quote and the order price the discount the same way, a
// code that does not apply is refused naming offerCode and creates nothing, an offer's max users holds under 20
// and under 40 concurrent checkouts, only a verified payment counts a use, and the invoice carries the discount.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferRedemptionsResponse } from '../contract';
import { findInvoiceByPayment, insertOffer, listPayments } from '../db';
import { signInFirstAdmin } from '../testing/admin';
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
    for (let i = 0; i < 41; i += 1) {
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
    expect(payment).toMatchObject({ amount_paise: 530_894, offer_id: offer.id });
    expect(await db()('offers').where({ id: offer.id }).first()).toMatchObject({ used_count: 1 });
    // The tax invoice: list price 4,999.00 − discount 499.90 = taxable 4,499.10, GST on the taxable value.
    const invoice = await findInvoiceByPayment(db(), payment?.id ?? 0);
    expect(invoice).toMatchObject({
      discount_paise: 49_990,
      offer_code: 'DIWALI10',
      taxable_paise: 449_910,
      total_paise: 530_894,
    });
  });

  it('a fixed-amount offer takes its paise off the price; GST is on what is left', async () => {
    await insertOffer(db(), { name: 'Flat 500', code: 'flat500', discount_paise: 50_000 }, NOW);
    const quote = await t.request('POST', '/api/payment/quote', {
      token: traders[2]?.token,
      body: { offerCode: 'Flat500' },
    });
    expect(quote.status).toBe(200);
    // 4,999.00 − 500.00 = 4,499.00; GST 18 % = 809.82; total 5,308.82.
    expect(quote.json).toMatchObject({
      plan: { pricePaise: 449_900, gstPaise: 80_982, totalPaise: 530_882 },
      offer: { code: 'FLAT500', discountPercent: null, discountPaise: 50_000 },
    });
    // Worth more than the plan (the price fell under it): refused naming offerCode, never a free or negative order.
    await insertOffer(db(), { name: 'Too much', code: 'TOOMUCH', discount_paise: 499_850 }, NOW);
    const refused = await t.request('POST', '/api/payment/create-order', {
      token: traders[2]?.token,
      body: { offerCode: 'TOOMUCH' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ field: 'offerCode', message: expect.stringMatching(/worth more/) });
  });

  it.each([
    ['an unknown code', 'NOSUCH', /no offer "NOSUCH"/],
    ['a fully used offer', 'FULL', /fully used/],
    ['an expired offer', 'OLD', /expired/],
    ['an inactive offer', 'OFF', /no longer available/],
    ['an offer not started', 'SOON', /not started/],
    ['a malformed code', 'a!', /offerCode must be 3 to 40/],
  ])('refuses %s naming offerCode and creates no order', async (_, code, message) => {
    if ((await db()('offers').where({ code: 'OLD' }).first()) === undefined) {
      await insertOffer(db(), { name: 'Old', code: 'OLD', valid_until_at: NOW - DAY }, NOW - 30 * DAY);
      await insertOffer(db(), { name: 'Off', code: 'OFF', active: false }, NOW);
      await insertOffer(db(), { name: 'Soon', code: 'SOON', valid_from_at: NOW + DAY }, NOW);
      const full = await insertOffer(db(), { name: 'Full', code: 'FULL', max_users: 1 }, NOW);
      await db()('offers').where({ id: full.id }).update({ used_count: 1 });
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

  it('40 racing checkouts for 7 uses: 7 orders, and only their verified payments count, each once', async () => {
    const offer = await insertOffer(
      db(),
      { name: 'Seven', code: 'SEVEN', discount_bp: 700, max_users: 7 },
      NOW,
    );
    const buyers = traders.slice(1, 41);
    expect(buyers).toHaveLength(40);
    const results = await Promise.all(
      buyers.map((b) =>
        t.request('POST', '/api/payment/create-order', { token: b.token, body: { offerCode: 'seven' } }),
      ),
    );
    const winners = buyers.filter((_, i) => results[i]?.status === 200);
    expect(winners).toHaveLength(7);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ field: 'offerCode', message: expect.stringMatching(/fully used/) });
    }
    // Orders only hold uses: nothing is counted before a payment is verified.
    expect(await db()('offers').where({ id: offer.id }).first()).toMatchObject({ used_count: 0 });

    // Every winner pays, all at once, each verifying twice (a double click): seven uses, no more.
    const paid = await Promise.all(
      winners.map(async (b, i) => {
        const order = results[buyers.indexOf(b)];
        const checkout = await t.request('POST', '/api/payment/test-checkout', {
          token: b.token,
          body: { orderId: order?.json.id },
        });
        expect(checkout.status, `winner ${i}`).toBe(200);
        const [first, second] = await Promise.all([
          t.request('POST', '/api/payment/verify', { token: b.token, body: checkout.json }),
          t.request('POST', '/api/payment/verify', { token: b.token, body: checkout.json }),
        ]);
        return [first?.status, second?.status];
      }),
    );
    expect(paid.flat().every((status) => status === 200)).toBe(true);
    expect(await db()('offers').where({ id: offer.id }).first()).toMatchObject({ used_count: 7 });
    const redeemed = await db()('payments').where({ offer_id: offer.id }).select('user_id');
    expect(new Set(redeemed.map((r: { user_id: number }) => r.user_id))).toEqual(
      new Set(winners.map((w) => w.id)),
    );

    // The admin sees the seven redemptions with their invoices and discounts.
    const admin = await signInFirstAdmin(t);
    const list = await t.request('GET', `/api/admin/offers/${offer.id}/redemptions?pageSize=5`, {
      token: admin.token,
    });
    expect(list.status).toBe(200);
    const body = list.json as unknown as OfferRedemptionsResponse;
    expect(body.total).toBe(7);
    expect(body.items).toHaveLength(5);
    expect(body.offer).toMatchObject({ code: 'SEVEN', usedCount: 7, maxUsers: 7 });
    // 7 % of 4,999.00 = 349.93; 4,649.07 + GST 836.83 = 5,485.90.
    for (const item of body.items) {
      expect(item).toMatchObject({ discountPaise: 34_993, amountPaise: 548_590 });
      expect(item.invoiceNumber).toMatch(/^OP\/\d{2}-\d{2}\/\d{5}$/);
    }
  });
});
