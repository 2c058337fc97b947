// Refunds over HTTP, as an admin makes them from the revenue page: a manual or test-mode payment is recorded as
// refunded here, a Razorpay payment is refunded through Razorpay (the fake), and either way a GST credit note is
// issued in its own series; bad amounts change nothing; concurrent refunds never return more than was paid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fakes/razorpay/server';
import type { PaymentHistoryResponse, RefundResponse } from '../contract';
import { testDialects } from '../db/testing';
import { registerTrader, signInFirstAdmin, type Caller } from '../testing/admin';
import { startTestServer, type TestServer } from '../testing/server';

/** The refund answer's body, typed. */
const refundOf = (res: { json: Record<string, unknown> }) => res.json as unknown as RefundResponse;
const noteOf = (res: { json: Record<string, unknown> }) => refundOf(res).creditNote!;

/** A test-mode checkout of the default plan by `trader`; resolves with its payment id. */
async function payInTestMode(t: TestServer, trader: Caller): Promise<number> {
  const order = await t.request('POST', '/api/payment/create-order', { token: trader.token, body: {} });
  const checkout = await t.request('POST', '/api/payment/test-checkout', {
    token: trader.token,
    body: { orderId: order.json.id },
  });
  const verified = await t.request('POST', '/api/payment/verify', {
    token: trader.token,
    body: checkout.json,
  });
  expect(verified.status).toBe(200);
  const row = (await t.server.deps.db
    .knex('payments')
    .where({ user_id: trader.id })
    .orderBy('id', 'desc')
    .first()) as { id: number };
  return row.id;
}

describe.each(testDialects())('refunds in payment test mode (%s)', (dialect) => {
  let t: TestServer;
  let admin: Caller;

  beforeAll(async () => {
    t = await startTestServer({ dialect });
    admin = await signInFirstAdmin(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const refund = (paymentId: number, body: unknown) =>
    t.request('POST', `/api/admin/payments/${paymentId}/refund`, { token: admin.token, body });

  it('refunds in parts: credit notes in their own series that add up to the invoice', async () => {
    const trader = await registerTrader(t, 'refund-parts');
    const paymentId = await payInTestMode(t, trader);
    const first = await refund(paymentId, { amountPaise: 100_000, reason: 'Goodwill', endAction: 'keep' });
    expect(first.status, first.text).toBe(200);
    expect(refundOf(first).refund).toMatchObject({
      amountPaise: 100_000,
      status: 'processed',
      providerRefundId: null,
    });
    expect(noteOf(first).number).toMatch(/^OPC\/\d{2}-\d{2}\/00001$/);

    const rest = await refund(paymentId, { amountPaise: 489_882, reason: 'Cancelled', endAction: 'keep' });
    expect(rest.status, rest.text).toBe(200);
    expect(noteOf(rest).number).toMatch(/\/00002$/);

    const knex = t.server.deps.db.knex;
    const invoice = await knex('invoices').where({ payment_id: paymentId }).first();
    const notes = await knex('credit_notes').where({ invoice_id: invoice.id });
    for (const head of ['taxable_paise', 'cgst_paise', 'sgst_paise', 'igst_paise', 'total_paise'])
      expect(notes.reduce((sum, n) => sum + Number(n[head]), 0)).toBe(Number(invoice[head]));
    expect(await knex('payments').where({ id: paymentId }).first()).toMatchObject({ status: 'refunded' });

    const history = await t.request('GET', '/api/payment/history', { token: trader.token });
    expect((history.json as unknown as PaymentHistoryResponse).payments[0]).toMatchObject({
      status: 'refunded',
      refundedPaise: 589_882,
      creditNotes: [
        { number: noteOf(first).number, totalPaise: 100_000 },
        { number: noteOf(rest).number, totalPaise: 489_882 },
      ],
    });
    const again = await refund(paymentId, { amountPaise: 1, reason: 'Again', endAction: 'keep' });
    expect(again.status).toBe(409);
    // One receipt for the payment and one notice per processed refund, each naming its credit note.
    const notices = (await knex('notification_outbox')
      .where({ user_id: trader.id })
      .orderBy('id')
      .select('event', 'payload')) as Array<{ event: string; payload: string }>;
    expect(notices.map((n) => [n.event, JSON.parse(n.payload) as unknown])).toEqual([
      ['payment_received', expect.objectContaining({ paymentId, amountPaise: 589_882 })],
      [
        'refund_issued',
        expect.objectContaining({ paymentId, amountPaise: 100_000, creditNoteNumber: noteOf(first).number }),
      ],
      [
        'refund_issued',
        expect.objectContaining({ paymentId, amountPaise: 489_882, creditNoteNumber: noteOf(rest).number }),
      ],
    ]);
  });

  it('serves the credit note PDF to the buyer and admins only', async () => {
    const trader = await registerTrader(t, 'refund-pdf');
    const other = await registerTrader(t, 'refund-pdf-other');
    const paymentId = await payInTestMode(t, trader);
    const res = await refund(paymentId, { amountPaise: 50_000, reason: 'Partial', endAction: 'keep' });
    const id = noteOf(res).id as number;
    for (const token of [trader.token, admin.token]) {
      const pdf = await t.request('GET', `/api/payment/credit-notes/${id}/pdf`, { token });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toContain('credit-note-OPC-');
      expect(pdf.headers.get('cache-control')).toBe('no-store');
    }
    expect(
      (await t.request('GET', `/api/payment/credit-notes/${id}/pdf`, { token: other.token })).status,
    ).toBe(404);
  });

  it('ends or shortens the subscription as the admin chooses', async () => {
    const trader = await registerTrader(t, 'refund-end');
    const paymentId = await payInTestMode(t, trader);
    const knex = t.server.deps.db.knex;
    const setTo = new Date(t.clock.now() + 5 * 86_400_000).toISOString();
    const shortened = await refund(paymentId, {
      amountPaise: 100_000,
      reason: 'Shorter plan',
      endAction: 'set',
      endDate: setTo,
    });
    expect(shortened.status, shortened.text).toBe(200);
    expect(await knex('users').where({ id: trader.id }).first()).toMatchObject({
      subscription_status: 'active',
    });
    expect(Number((await knex('users').where({ id: trader.id }).first()).subscription_end_at)).toBe(
      Date.parse(setTo),
    );
    const ended = await refund(paymentId, {
      amountPaise: 100_000,
      reason: 'Cancelled',
      endAction: 'end_now',
    });
    expect(ended.status).toBe(200);
    const user = await knex('users').where({ id: trader.id }).first();
    expect(user.subscription_status).toBe('expired');
    expect(Number(user.subscription_end_at)).toBe(t.clock.now());
    const sub = await t.request('GET', '/api/user/subscription', { token: trader.token });
    expect(sub.json.status).toBe('expired');
  });

  it('refuses bad input with 400 naming the field and stores nothing', async () => {
    const trader = await registerTrader(t, 'refund-bad');
    const paymentId = await payInTestMode(t, trader);
    const knex = t.server.deps.db.knex;
    const cases: Array<[unknown, string]> = [
      [{ amountPaise: 589_883, reason: 'Too much', endAction: 'keep' }, 'amountPaise'],
      [{ amountPaise: 10.5, reason: 'Fraction', endAction: 'keep' }, 'amountPaise'],
      [{ amountPaise: 0, reason: 'Zero', endAction: 'keep' }, 'amountPaise'],
      [{ amountPaise: 100, reason: '', endAction: 'keep' }, 'reason'],
      [{ amountPaise: 100, reason: 'No date', endAction: 'set' }, 'endDate'],
      [{ amountPaise: 100, reason: 'Bad action', endAction: 'later' }, 'endAction'],
    ];
    for (const [body, field] of cases) {
      const res = await refund(paymentId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(String(res.json.message)).toContain(field);
    }
    expect((await refund(999_999, { amountPaise: 100, reason: 'Nobody', endAction: 'keep' })).status).toBe(
      404,
    );
    expect(await knex('refunds').where({ payment_id: paymentId })).toEqual([]);
    expect(await knex('credit_notes').where({ user_id: trader.id })).toEqual([]);
  });

  it('never refunds more than was paid under concurrent refunds', async () => {
    const trader = await registerTrader(t, 'refund-race');
    const paymentId = await payInTestMode(t, trader);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        refund(paymentId, { amountPaise: 100_000, reason: `Race ${i}`, endAction: 'keep' }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(5);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 400)).toBe(true);
    const numbers = ok.map((a) => noteOf(a).number as string);
    expect(new Set(numbers).size).toBe(5);
    const total = await t.server.deps.db
      .knex('refunds')
      .where({ payment_id: paymentId, status: 'processed' })
      .sum({ n: 'amount_paise' })
      .first();
    expect(Number(total?.n)).toBe(500_000);
  });
});

describe('refunds of Razorpay payments', () => {
  let t: TestServer;
  let fake: FakeRazorpay;
  let admin: Caller;

  beforeAll(async () => {
    fake = await startFakeRazorpay();
    t = await startTestServer({
      env: {
        RAZORPAY_KEY_ID: fake.keyId,
        RAZORPAY_KEY_SECRET: fake.keySecret,
        RAZORPAY_API_ROOT: fake.url,
      },
    });
    admin = await signInFirstAdmin(t);
  });
  let fakeClosed = false;
  afterAll(async () => {
    await t.close();
    if (!fakeClosed) await fake.close();
  });

  async function payWithRazorpay(trader: Caller): Promise<{ paymentId: number; providerId: string }> {
    const order = await t.request('POST', '/api/payment/create-order', { token: trader.token, body: {} });
    const result = fake.checkout(order.json.id as string);
    const verified = await t.request('POST', '/api/payment/verify', { token: trader.token, body: result });
    expect(verified.status, verified.text).toBe(200);
    const row = (await t.server.deps.db
      .knex('payments')
      .where({ provider_payment_id: result.razorpay_payment_id })
      .first()) as { id: number };
    return { paymentId: row.id, providerId: result.razorpay_payment_id };
  }

  it('refunds through Razorpay and records its refund id with the credit note', async () => {
    const trader = await registerTrader(t, 'rzp-refund');
    const { paymentId, providerId } = await payWithRazorpay(trader);
    const res = await t.request('POST', `/api/admin/payments/${paymentId}/refund`, {
      token: admin.token,
      body: { amountPaise: 200_000, reason: 'Customer asked', endAction: 'keep' },
    });
    expect(res.status, res.text).toBe(200);
    const remote = fake.refunds.find((r) => r.payment_id === providerId);
    expect(remote).toMatchObject({ amount: 200_000 });
    expect(remote?.notes).toMatchObject({ refund_id: String(refundOf(res).refund.id) });
    expect(refundOf(res).refund).toMatchObject({ status: 'processed', providerRefundId: remote?.id });
    expect(noteOf(res).number).toMatch(/^OPC\//);
  });

  it('records nothing as refunded when Razorpay cannot be reached, and says so', async () => {
    const trader = await registerTrader(t, 'rzp-refund-down');
    const { paymentId } = await payWithRazorpay(trader);
    await fake.close();
    fakeClosed = true;
    const res = await t.request('POST', `/api/admin/payments/${paymentId}/refund`, {
      token: admin.token,
      body: { amountPaise: 100_000, reason: 'Outage', endAction: 'end_now' },
    });
    expect(res.status).toBe(503);
    expect(String(res.json.message)).toContain('Nothing was refunded');
    const knex = t.server.deps.db.knex;
    expect(await knex('refunds').where({ payment_id: paymentId }).first()).toMatchObject({
      status: 'failed',
    });
    expect(await knex('credit_notes').where({ user_id: trader.id })).toEqual([]);
    expect(await knex('users').where({ id: trader.id }).first()).toMatchObject({
      subscription_status: 'active',
    });
  });
});
