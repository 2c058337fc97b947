// The official SDK pointed at the Razorpay fake through the one seam (RAZORPAY_API_ROOT): orders with Basic auth,
// payments and refunds, Razorpay's refusals and an unreachable API as RazorpayErrors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fakes/razorpay/server';
import { createRazorpayApi, RazorpayError } from './razorpayApi';

describe('Razorpay through the official SDK (against the fake)', () => {
  let fake: FakeRazorpay;
  beforeAll(async () => {
    fake = await startFakeRazorpay();
  });
  afterAll(async () => {
    await fake.close();
  });
  const api = (keySecret = fake.keySecret, apiRoot = fake.url) =>
    createRazorpayApi({ keyId: fake.keyId, keySecret, apiRoot, timeoutMs: 2_000 });

  it('creates an order at the configured root, never the real API, with Basic auth and the amount in paise', async () => {
    const order = await api().createOrder({ amount: 589_882, currency: 'INR', receipt: 'op_1_abc' });
    expect(order).toMatchObject({ amount: 589_882, currency: 'INR', receipt: 'op_1_abc', status: 'created' });
    expect(order.id).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(fake.requests.at(-1)).toEqual({ method: 'POST', path: '/v1/orders', authorized: true });
  });

  it('fetches a payment and an order’s payments, and refunds part of a payment', async () => {
    const order = await api().createOrder({ amount: 589_882, currency: 'INR', receipt: 'op_2' });
    const paid = fake.checkout(order.id);
    const payment = await api().fetchPayment(paid.razorpay_payment_id);
    expect(payment).toMatchObject({
      order_id: order.id,
      amount: 589_882,
      currency: 'INR',
      status: 'captured',
    });
    expect((await api().orderPayments(order.id)).map((p) => p.id)).toEqual([paid.razorpay_payment_id]);
    const refund = await api().refund(paid.razorpay_payment_id, 100_000, { reason: 'goodwill' });
    expect(refund).toMatchObject({
      payment_id: paid.razorpay_payment_id,
      amount: 100_000,
      status: 'processed',
    });
    expect(fake.payments.get(paid.razorpay_payment_id)?.amount_refunded).toBe(100_000);
  });

  it("turns Razorpay's refusals into RazorpayErrors with status, code and description", async () => {
    const wrongKey = await api('wrong-secret-value')
      .createOrder({ amount: 589_882, currency: 'INR', receipt: 'r' })
      .catch((e: unknown) => e);
    expect(wrongKey).toBeInstanceOf(RazorpayError);
    expect(wrongKey).toMatchObject({
      status: 401,
      code: 'BAD_REQUEST_ERROR',
      message: 'Authentication failed',
    });
    const tooSmall = await api()
      .createOrder({ amount: 50, currency: 'INR', receipt: 'r' })
      .catch((e: unknown) => e);
    expect(tooSmall).toMatchObject({ status: 400, message: 'The amount must be atleast INR 1.00' });
    const missing = await api()
      .fetchPayment('pay_missing')
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 400 });
  });

  it('reports an unreachable API as status 0', async () => {
    const err = await api(fake.keySecret, 'http://127.0.0.1:9')
      .createOrder({ amount: 589_882, currency: 'INR', receipt: 'r' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RazorpayError);
    expect((err as RazorpayError).status).toBe(0);
  });
});
