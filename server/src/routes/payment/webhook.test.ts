// POST /api/payment/webhook: signature over the raw body, idempotent by event id, and one activation and one
// invoice however the browser's verification and the webhook interleave.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlanByCode, insertPaymentOrder } from '../../db';
import { testDialects } from '../../db/testing';
import { createRazorpayGateway } from '../../payments/gateway';
import { verifyPayment } from '../../payments/service';
import { checkoutSignature, webhookSignature } from '../../payments/signature';
import { registration, startTestServer, type TestServer } from '../../testing/server';

const KEY_ID = 'rzp_test_WebhookKey01';
const KEY_SECRET = 'key_secret_for_webhook_tests';
const WEBHOOK_SECRET = 'webhook_secret_for_tests';

describe.each(testDialects())('POST /api/payment/webhook (%s)', (dialect) => {
  let t: TestServer;
  let userId: number;
  let token: string;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer({
      dialect,
      env: {
        RAZORPAY_KEY_ID: KEY_ID,
        RAZORPAY_KEY_SECRET: KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    const reg = await t.request('POST', '/api/auth/register', { body: registration('hook') });
    userId = (reg.json.user as { id: number }).id;
    token = reg.json.token as string;
  });
  afterAll(async () => {
    await t.close();
  });

  const knex = () => t.server.deps.db.knex;

  async function newOrder() {
    n += 1;
    const plan = (await findPlanByCode(knex(), 'monthly'))!;
    return insertPaymentOrder(knex(), {
      user_id: userId,
      provider: 'razorpay',
      provider_order_id: `order_Hook${dialect}${String(n).padStart(6, '0')}`,
      plan_id: plan.id,
      offer_id: null,
      base_paise: 499_900,
      discount_paise: 0,
      gst_paise: 89_982,
      amount_paise: 589_882,
      receipt: `rcpt_hook_${dialect}_${n}`,
      buyer_state_code: '27',
    });
  }

  function captured(orderId: string, paymentId: string, amount = 589_882) {
    return JSON.stringify({
      entity: 'event',
      account_id: 'acc_Fake000000001',
      event: 'payment.captured',
      contains: ['payment'],
      payload: {
        payment: {
          entity: {
            id: paymentId,
            entity: 'payment',
            amount,
            currency: 'INR',
            status: 'captured',
            order_id: orderId,
          },
        },
      },
      created_at: 1_763_900_000,
    });
  }

  const deliver = (raw: string, eventId: string, signature = webhookSignature(raw, WEBHOOK_SECRET)) =>
    t.request('POST', '/api/payment/webhook', {
      rawBody: raw,
      headers: { 'x-razorpay-signature': signature, 'x-razorpay-event-id': eventId },
    });

  const counts = async () => ({
    payments: Number(((await knex()('payments').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n),
    invoices: Number(((await knex()('invoices').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n),
    events: Number(
      ((await knex()('webhook_events').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n,
    ),
  });

  it('refuses a wrong or missing signature with 400 and changes nothing', async () => {
    const order = await newOrder();
    const raw = captured(order.provider_order_id, 'pay_BadSig00000001');
    const before = await counts();
    const wrong = await deliver(raw, 'evt_bad_1', webhookSignature(raw, 'another_secret'));
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ error: 'validation_failed' });
    expect(String(wrong.json.message)).toContain('X-Razorpay-Signature');
    const missing = await t.request('POST', '/api/payment/webhook', { rawBody: raw });
    expect(missing.status).toBe(400);
    // A body changed after signing fails too.
    const tampered = await deliver(
      raw.replace('589882', '100'),
      'evt_bad_2',
      webhookSignature(raw, WEBHOOK_SECRET),
    );
    expect(tampered.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('refuses a signed event without a plain X-Razorpay-Event-Id with 400 naming it, and stores nothing', async () => {
    const order = await newOrder();
    const raw = captured(order.provider_order_id, 'pay_NoEvtId0000001');
    const before = await counts();
    const signed = { 'x-razorpay-signature': webhookSignature(raw, WEBHOOK_SECRET) };
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'is required'],
      [{ 'x-razorpay-event-id': 'E'.repeat(65) }, 'at most 64'],
      [{ 'x-razorpay-event-id': 'evt 1;drop' }, 'letters, digits'],
      [{ 'x-razorpay-event-id': 'evt\u00e91' }, 'letters, digits'],
    ];
    for (const [headers, why] of cases) {
      const res = await t.request('POST', '/api/payment/webhook', {
        rawBody: raw,
        headers: { ...signed, ...headers },
      });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'validation_failed', field: 'X-Razorpay-Event-Id' });
      expect(String(res.json.message)).toContain(why);
    }
    expect(await counts()).toEqual(before);
    // The same delivery with its id is acted on: the refusals above were about the id alone.
    expect((await deliver(raw, 'E'.repeat(64))).status).toBe(200);
    expect((await counts()).payments).toBe(before.payments + 1);
  });

  it('refuses a signed body that is not a webhook event with 400', async () => {
    const res = await deliver('{"hello":1}', 'evt_bad_3');
    expect(res.status).toBe(400);
  });

  it('activates a payment captured while the browser was closed, once for the same event delivered twice', async () => {
    const order = await newOrder();
    const raw = captured(order.provider_order_id, 'pay_Closed0000001');
    const before = await counts();
    const first = await deliver(raw, 'evt_closed_1');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ ok: true, duplicate: false });
    const second = await deliver(raw, 'evt_closed_1');
    expect(second.json).toMatchObject({ ok: true, duplicate: true });
    expect(await counts()).toEqual({
      payments: before.payments + 1,
      invoices: before.invoices + 1,
      events: before.events + 1,
    });
    const invoice = await knex()('invoices').orderBy('id', 'desc').first();
    expect(invoice).toMatchObject({ place_of_supply: '27', igst_paise: 89_982 });
    const sub = await t.request('GET', '/api/user/subscription', { token });
    expect(sub.json).toMatchObject({ status: 'active' });
  });

  it('webhook before the browser verify: one activation and one invoice; a later event for the payment adds none', async () => {
    const order = await newOrder();
    const paymentId = 'pay_Race00000001';
    const before = await counts();
    expect((await deliver(captured(order.provider_order_id, paymentId), 'evt_race_1')).status).toBe(200);
    const gateway = createRazorpayGateway({
      keyId: KEY_ID,
      keySecret: KEY_SECRET,
      apiRoot: 'http://127.0.0.1:9',
    });
    const verified = await verifyPayment({
      deps: t.server.deps,
      gateway,
      userId,
      input: {
        razorpay_order_id: order.provider_order_id,
        razorpay_payment_id: paymentId,
        razorpay_signature: checkoutSignature(order.provider_order_id, paymentId, KEY_SECRET),
      },
      onUserChanged: async () => {},
    });
    expect(verified.activated).toBe(false);
    // order.paid for the same payment arrives later under its own event id.
    const paid = JSON.parse(captured(order.provider_order_id, paymentId)) as { event: string };
    paid.event = 'order.paid';
    expect((await deliver(JSON.stringify(paid), 'evt_race_2')).status).toBe(200);
    const after = await counts();
    expect(after.payments).toBe(before.payments + 1);
    expect(after.invoices).toBe(before.invoices + 1);
  });

  it('records but does not activate a capture whose amount differs from the order', async () => {
    const order = await newOrder();
    const before = await counts();
    const res = await deliver(captured(order.provider_order_id, 'pay_Short0000001', 100), 'evt_short_1');
    expect(res.status).toBe(200);
    expect(await counts()).toEqual({ ...before, events: before.events + 1 });
    const event = await knex()('webhook_events').where({ event_id: 'evt_short_1' }).first();
    expect(event).toMatchObject({ error: 'amount or currency differs from the order' });
  });

  it('refund.processed settles a refund the server left pending, once, with its credit note', async () => {
    const order = await newOrder();
    const captureId = `pay_Refund${dialect}0001`.slice(0, 20);
    expect(
      (await deliver(captured(order.provider_order_id, captureId), `evt_rf_cap_${dialect}`)).status,
    ).toBe(200);
    const payment = await knex()('payments').where({ provider_payment_id: captureId }).first();
    // As a crash between Razorpay's answer and our commit leaves it.
    const [pending] = await knex()('refunds')
      .insert({
        payment_id: payment.id,
        user_id: userId,
        amount_paise: 100_000,
        status: 'pending',
        reason: 'Crash window',
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .returning('id');
    const refundId = typeof pending === 'object' ? (pending as { id: number }).id : Number(pending);
    const raw = JSON.stringify({
      entity: 'event',
      account_id: 'acc_Fake000000001',
      event: 'refund.processed',
      contains: ['refund', 'payment'],
      payload: {
        refund: {
          entity: {
            id: `rfnd_Hook${dialect}01`,
            entity: 'refund',
            amount: 100_000,
            currency: 'INR',
            payment_id: captureId,
            status: 'processed',
            notes: { refund_id: String(refundId) },
          },
        },
      },
      created_at: 1_763_900_100,
    });
    expect((await deliver(raw, `evt_rf_${dialect}`)).status).toBe(200);
    // Razorpay retries with a new delivery of the same refund: nothing is issued twice.
    expect((await deliver(raw, `evt_rf_${dialect}_again`)).status).toBe(200);
    expect(await knex()('refunds').where({ id: refundId }).first()).toMatchObject({
      status: 'processed',
      provider_refund_id: `rfnd_Hook${dialect}01`,
    });
    expect(await knex()('credit_notes').where({ refund_id: refundId })).toHaveLength(1);
  });
});
