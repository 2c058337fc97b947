// The live (Razorpay) path of the checkout service, end to end against the fake Orders API: the order is created
// at Razorpay with the server's amount, and the signature Razorpay's checkout returns (made with the key secret)
// verifies and activates the subscription.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fakes/razorpay/server';
import { findUserById, listPayments } from '../db';
import { testDialects } from '../db/testing';
import { registration, startTestServer, type TestServer } from '../testing/server';
import { createRazorpayGateway } from './gateway';
import { createPaymentOrder, verifyPayment } from './service';
import { addMonths } from './pricing';

describe.each(testDialects())('checkout service with Razorpay (%s)', (dialect) => {
  let t: TestServer;
  let fake: FakeRazorpay;
  let userId: number;
  const changed: number[] = [];

  beforeAll(async () => {
    fake = await startFakeRazorpay();
    t = await startTestServer({ dialect });
    const reg = await t.request('POST', '/api/auth/register', { body: registration('rzp') });
    userId = (reg.json.user as { id: number }).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const gateway = () =>
    createRazorpayGateway({ keyId: fake.keyId, keySecret: fake.keySecret, apiRoot: fake.url });
  const onUserChanged = async (id: number) => {
    changed.push(id);
  };

  it('creates the Razorpay order for the plan amount and verifies the checkout signature', async () => {
    const deps = t.server.deps;
    const { response, order } = await createPaymentOrder({
      deps,
      gateway: gateway(),
      userId,
      input: { amount: 5899 },
    });
    expect(response).toMatchObject({ amount: 589_882, currency: 'INR', testMode: false, keyId: fake.keyId });
    const remote = fake.orders.get(response.id);
    expect(remote).toMatchObject({ amount: 589_882, currency: 'INR', receipt: order.receipt });
    expect(order.provider).toBe('razorpay');

    const result = fake.checkout(response.id);
    const verified = await verifyPayment({ deps, gateway: gateway(), userId, input: result, onUserChanged });
    expect(verified.activated).toBe(true);
    expect(verified.subscription.status).toBe('active');
    expect(changed).toEqual([userId]);
    const now = deps.clock.now();
    expect(await findUserById(deps.db.knex, userId)).toMatchObject({
      subscription_status: 'active',
      subscription_end_at: addMonths(now, 1),
    });
    const [payment] = await listPayments(deps.db.knex, { userId });
    expect(payment).toMatchObject({ method: 'razorpay', provider_payment_id: result.razorpay_payment_id });

    const again = await verifyPayment({ deps, gateway: gateway(), userId, input: result, onUserChanged });
    expect(again.activated).toBe(false);
    expect(changed).toEqual([userId]);
  });

  it('asks Razorpay about the payment first: another amount, another order or a failed payment activates nothing', async () => {
    const deps = t.server.deps;
    const reg = await t.request('POST', '/api/auth/register', { body: registration('rzp-check') });
    const buyer = (reg.json.user as { id: number }).id;
    const cases: Array<[string, (p: { amount: number; order_id: string; status: string }) => void, RegExp]> =
      [
        ['amount', (p) => (p.amount -= 100), /amount paid is not the order amount/],
        ['order', (p) => (p.order_id = 'order_SomeoneElse123'), /belongs to another order/],
        ['status', (p) => (p.status = 'failed'), /payment is failed/],
      ];
    for (const [, tamper, message] of cases) {
      const { response } = await createPaymentOrder({ deps, gateway: gateway(), userId: buyer, input: {} });
      const result = fake.checkout(response.id);
      const payment = fake.payments.get(result.razorpay_payment_id);
      if (payment) tamper(payment);
      const err = await verifyPayment({
        deps,
        gateway: gateway(),
        userId: buyer,
        input: result,
        onUserChanged,
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 400, field: 'razorpay_payment_id' });
      expect((err as Error).message).toMatch(message);
    }
    expect(await listPayments(deps.db.knex, { userId: buyer })).toEqual([]);
    expect((await findUserById(deps.db.knex, buyer))?.subscription_status).not.toBe('active');

    // Razorpay unreachable at verification: 503, nothing recorded, the payer can retry.
    const { response } = await createPaymentOrder({ deps, gateway: gateway(), userId: buyer, input: {} });
    const result = fake.checkout(response.id);
    const offline = createRazorpayGateway({
      keyId: fake.keyId,
      keySecret: fake.keySecret,
      apiRoot: 'http://127.0.0.1:9',
    });
    const down = await verifyPayment({
      deps,
      gateway: offline,
      userId: buyer,
      input: result,
      onUserChanged,
    }).catch((e: unknown) => e);
    expect(down).toMatchObject({ status: 503 });
    expect(await listPayments(deps.db.knex, { userId: buyer })).toEqual([]);
    const retried = await verifyPayment({
      deps,
      gateway: gateway(),
      userId: buyer,
      input: result,
      onUserChanged,
    });
    expect(retried.activated).toBe(true);
  });

  it('turns a Razorpay outage into 503 and stores no order', async () => {
    const deps = t.server.deps;
    const before = await deps.db.knex('payment_orders').count({ n: '*' });
    fake.failNext(503);
    const err = await createPaymentOrder({ deps, gateway: gateway(), userId, input: {} }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ id: 'service_unavailable', status: 503 });
    expect(await deps.db.knex('payment_orders').count({ n: '*' })).toEqual(before);
  });

  it('refuses a checkout signed with another secret (e.g. the test-mode secret)', async () => {
    const deps = t.server.deps;
    const { response } = await createPaymentOrder({ deps, gateway: gateway(), userId, input: {} });
    const other = await startFakeRazorpay({ keyId: fake.keyId, keySecret: 'a_different_secret_123' });
    try {
      other.orders.set(response.id, { ...fake.orders.get(response.id)! });
      const forged = other.checkout(response.id);
      const err = await verifyPayment({
        deps,
        gateway: gateway(),
        userId,
        input: forged,
        onUserChanged,
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 400, field: 'razorpay_signature' });
    } finally {
      await other.close();
    }
  });
});
