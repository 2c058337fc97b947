import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fakes/razorpay/server';
import { createRazorpayClient, RazorpayError } from './razorpayClient';

describe('Razorpay orders client (against the fake Orders API)', () => {
  let fake: FakeRazorpay;
  beforeAll(async () => {
    fake = await startFakeRazorpay();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('creates an order with Basic auth, amount in paise and the receipt', async () => {
    const client = createRazorpayClient({ keyId: fake.keyId, keySecret: fake.keySecret, baseUrl: fake.url });
    const order = await client.createOrder({ amount: 589_882, currency: 'INR', receipt: 'op_1_abc' });
    expect(order).toMatchObject({ entity: 'order', amount: 589_882, currency: 'INR', receipt: 'op_1_abc' });
    expect(order.id).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(fake.orders.get(order.id)?.status).toBe('created');
    expect(fake.requests.at(-1)).toEqual({ method: 'POST', path: '/v1/orders', authorized: true });
  });

  it("surfaces Razorpay's refusal (wrong keys) as a RazorpayError with status and code", async () => {
    const client = createRazorpayClient({ keyId: fake.keyId, keySecret: 'wrong-secret', baseUrl: fake.url });
    const err = await client
      .createOrder({ amount: 589_882, currency: 'INR', receipt: 'r' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RazorpayError);
    expect(err).toMatchObject({ status: 401, code: 'BAD_REQUEST_ERROR', message: 'Authentication failed' });
  });

  it('reports validation refusals with the description', async () => {
    const client = createRazorpayClient({ keyId: fake.keyId, keySecret: fake.keySecret, baseUrl: fake.url });
    const err = await client
      .createOrder({ amount: 50, currency: 'INR', receipt: 'r' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, message: 'The amount must be atleast INR 1.00' });
  });

  it('reports an unreachable API as status 0', async () => {
    const client = createRazorpayClient({ keyId: 'k', keySecret: 's', baseUrl: 'http://127.0.0.1:9' });
    const err = await client
      .createOrder({ amount: 589_882, currency: 'INR', receipt: 'r' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RazorpayError);
    expect((err as RazorpayError).status).toBe(0);
  });
});
