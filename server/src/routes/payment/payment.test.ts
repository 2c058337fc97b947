import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateKey } from '../../crypto';
import { findUserById, listLogs, listPayments, listSubscriptionsForUser, updateUser } from '../../db';
import { testDialects } from '../../db/testing';
import { PAYMENT_TEST_KEY_FILE } from '../../payments/gateway';
import { addMonths } from '../../payments/pricing';
import { assertNoSecrets, registration, startTestServer, type TestServer } from '../../testing/server';

const NOW = Date.UTC(2026, 0, 6, 6, 0);
const DAY = 86_400_000;

describe.each(testDialects())('payment API in test mode (%s)', (dialect) => {
  let t: TestServer;
  let testSecret: string;
  const texts: string[] = [];
  const db = () => t.server.deps.db.knex;

  const call = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const res = await t.request(method, path, options);
    texts.push(res.text);
    return res;
  };
  const signUp = async (n: string) => {
    const res = await call('POST', '/api/auth/register', { body: registration(n) });
    return { token: res.json.token as string, id: (res.json.user as { id: number }).id };
  };
  const order = async (token: string, body: unknown = { amount: 5899 }) => {
    const res = await call('POST', '/api/payment/create-order', { token, body });
    expect(res.status).toBe(200);
    return res.json as { id: string; amount: number };
  };
  const checkout = async (token: string, orderId: string) => {
    const res = await call('POST', '/api/payment/test-checkout', { token, body: { orderId } });
    expect(res.status).toBe(200);
    return res.json as { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
  };

  beforeAll(async () => {
    t = await startTestServer({ dialect });
    t.clock.set(NOW);
    testSecret = loadOrCreateKey(t.config.dataDir, undefined, { fileName: PAYMENT_TEST_KEY_FILE }).toString(
      'base64',
    );
  });
  afterAll(async () => {
    // The server's test secret and its raw key never reached the browser.
    for (const text of texts) {
      expect(text).not.toContain(testSecret);
      assertNoSecrets(text);
    }
    await t.close();
  });

  it.each([['/api/payment/create-order'], ['/api/payment/test-checkout'], ['/api/payment/verify']])(
    'POST %s is 401 without a sign-in',
    async (path) => {
      const res = await call('POST', path, { body: {} });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('unauthenticated');
    },
  );

  describe('POST /api/payment/create-order', () => {
    it.each([[{ amount: 5899 }], [{ amount: 1 }], [{ amount: '999999' }], [{}]])(
      'charges 589882 paise for the monthly plan whatever the browser sends (%j)',
      async (body) => {
        const user = await signUp(`amount${JSON.stringify(body).length}${Math.random()}`);
        const res = await call('POST', '/api/payment/create-order', { token: user.token, body });
        expect(res.status).toBe(200);
        expect(res.json).toMatchObject({
          amount: 589_882,
          currency: 'INR',
          testMode: true,
          keyId: null,
          plan: { code: 'monthly', pricePaise: 499_900, gstPaise: 89_982, totalPaise: 589_882 },
        });
        expect(res.json.id).toMatch(/^order_test_[A-Za-z0-9]{14}$/);
        const row = await db()('payment_orders').where({ provider_order_id: res.json.id }).first();
        expect(row).toMatchObject({ user_id: user.id, provider: 'test', status: 'created' });
        expect(Number(row.amount_paise)).toBe(589_882);
        expect(String(row.receipt).length).toBeLessThanOrEqual(40);
      },
    );

    it('refuses a plan that is not on sale and a malformed plan code, naming planCode', async () => {
      const user = await signUp('plans');
      const inactive = await call('POST', '/api/payment/create-order', {
        token: user.token,
        body: { planCode: 'yearly' },
      });
      expect(inactive.status).toBe(400);
      expect(inactive.json).toMatchObject({ field: 'planCode' });
      const malformed = await call('POST', '/api/payment/create-order', {
        token: user.token,
        body: { planCode: 7 },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.json).toMatchObject({ field: 'planCode' });
    });
  });

  describe('POST /api/payment/test-checkout', () => {
    it('returns the three checkout fields signed with the server test secret', async () => {
      const user = await signUp('checkout');
      const { id } = await order(user.token);
      const result = await checkout(user.token, id);
      expect(result.razorpay_order_id).toBe(id);
      expect(result.razorpay_payment_id).toMatch(/^pay_test_/);
      const expected = createHmac('sha256', testSecret)
        .update(`${id}|${result.razorpay_payment_id}`)
        .digest('hex');
      expect(result.razorpay_signature).toBe(expected);
    });

    it("is 404 for another user's order or an unknown one, 400 without orderId", async () => {
      const owner = await signUp('owner');
      const other = await signUp('other');
      const { id } = await order(owner.token);
      const foreign = await call('POST', '/api/payment/test-checkout', {
        token: other.token,
        body: { orderId: id },
      });
      expect(foreign.status).toBe(404);
      const unknown = await call('POST', '/api/payment/test-checkout', {
        token: owner.token,
        body: { orderId: 'order_test_nope' },
      });
      expect(unknown.status).toBe(404);
      const missing = await call('POST', '/api/payment/test-checkout', { token: owner.token, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.json).toMatchObject({ field: 'orderId', message: 'orderId: orderId is required' });
    });
  });

  describe('POST /api/payment/verify', () => {
    it('refuses a bad signature with 400 and leaves the subscription and order unchanged', async () => {
      const user = await signUp('badsig');
      const { id } = await order(user.token);
      const result = await checkout(user.token, id);
      const forged = {
        ...result,
        razorpay_signature: createHmac('sha256', 'guess').update('x').digest('hex'),
      };
      const res = await call('POST', '/api/payment/verify', { token: user.token, body: forged });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'validation_failed', field: 'razorpay_signature' });
      // A signature for another payment id does not carry over either.
      const swapped = { ...result, razorpay_payment_id: 'pay_test_SomethingElse1' };
      expect((await call('POST', '/api/payment/verify', { token: user.token, body: swapped })).status).toBe(
        400,
      );

      const row = await findUserById(db(), user.id);
      expect(row).toMatchObject({ subscription_status: 'pending', subscription_end_at: null });
      expect(await listSubscriptionsForUser(db(), user.id)).toEqual([]);
      expect(await listPayments(db(), { userId: user.id })).toEqual([]);
      const orderRow = await db()('payment_orders').where({ provider_order_id: id }).first();
      expect(orderRow.status).toBe('created');
      const logs = await listLogs(db(), { userId: user.id });
      expect(logs.map((l) => l.description)).toContain('Payment verification failed: signature mismatch');
    });

    it.each([
      [{ razorpay_order_id: 'o', razorpay_signature: 'a'.repeat(64) }, 'razorpay_payment_id'],
      [{ razorpay_payment_id: 'p', razorpay_signature: 'a'.repeat(64) }, 'razorpay_order_id'],
      [
        { razorpay_payment_id: 'p', razorpay_order_id: 'o', razorpay_signature: 'nothex' },
        'razorpay_signature',
      ],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const user = await signUp(`verify-invalid-${field}`);
      const res = await call('POST', '/api/payment/verify', { token: user.token, body });
      expect(res.status).toBe(400);
      expect(res.json.field).toBe(field);
    });

    it('activates the subscription for the plan months; verifying twice extends once', async () => {
      const user = await signUp('pays');
      const { id } = await order(user.token);
      const result = await checkout(user.token, id);
      const first = await call('POST', '/api/payment/verify', { token: user.token, body: result });
      expect(first.status).toBe(200);
      const end = new Date(addMonths(NOW, 1)).toISOString();
      expect(first.json).toMatchObject({
        success: true,
        subscription: {
          status: 'active',
          endDate: end,
          startDate: new Date(NOW).toISOString(),
          amount: 5898.82,
        },
      });

      const second = await call('POST', '/api/payment/verify', { token: user.token, body: result });
      expect(second.status).toBe(200);
      expect(second.json).toMatchObject({ success: true, subscription: { status: 'active', endDate: end } });

      expect(await listSubscriptionsForUser(db(), user.id)).toHaveLength(1);
      const payments = await listPayments(db(), { userId: user.id });
      expect(payments).toHaveLength(1);
      expect(payments[0]).toMatchObject({ method: 'test', amount_paise: 589_882, status: 'captured' });
      const orderRow = await db()('payment_orders').where({ provider_order_id: id }).first();
      expect(orderRow.status).toBe('paid');
      expect(await findUserById(db(), user.id)).toMatchObject({
        subscription_status: 'active',
        subscription_start_at: NOW,
        subscription_end_at: addMonths(NOW, 1),
      });
      const logs = await listLogs(db(), { userId: user.id });
      expect(logs.filter((l) => l.description.startsWith('Payment received'))).toHaveLength(1);
      const sub = await call('GET', '/api/user/subscription', { token: user.token });
      expect(sub.json).toMatchObject({ status: 'active', daysLeft: 31 });
      const me = await call('GET', '/api/auth/me', { token: user.token });
      expect(me.json).toMatchObject({ subscriptionStatus: 'active', subscriptionEndDate: end });

      // A paid order cannot be checked out again.
      const again = await call('POST', '/api/payment/test-checkout', {
        token: user.token,
        body: { orderId: id },
      });
      expect(again.status).toBe(400);
    });

    it('extends once when the same checkout result is verified twice at the same time', async () => {
      const user = await signUp('race');
      const { id } = await order(user.token);
      const result = await checkout(user.token, id);
      const both = await Promise.all([
        call('POST', '/api/payment/verify', { token: user.token, body: result }),
        call('POST', '/api/payment/verify', { token: user.token, body: result }),
      ]);
      expect(both.map((r) => r.status)).toEqual([200, 200]);
      expect(await listSubscriptionsForUser(db(), user.id)).toHaveLength(1);
      expect(await listPayments(db(), { userId: user.id })).toHaveLength(1);
      expect((await findUserById(db(), user.id))?.subscription_end_at).toBe(addMonths(NOW, 1));
    });

    it('renews from the current end date while it runs, and from now once it has lapsed', async () => {
      const user = await signUp('renews');
      const pay = async (token: string) => {
        const { id } = await order(token);
        const res = await call('POST', '/api/payment/verify', { token, body: await checkout(token, id) });
        expect(res.status).toBe(200);
      };
      await pay(user.token);
      await pay(user.token);
      const row = await findUserById(db(), user.id);
      expect(row?.subscription_end_at).toBe(addMonths(addMonths(NOW, 1), 1));
      expect(row?.subscription_start_at).toBe(NOW);
      const periods = await listSubscriptionsForUser(db(), user.id);
      expect(periods.map((p) => [p.starts_at, p.ends_at])).toEqual([
        [addMonths(NOW, 1), addMonths(addMonths(NOW, 1), 1)],
        [NOW, addMonths(NOW, 1)],
      ]);

      const lapsed = await signUp('lapsed');
      await updateUser(db(), lapsed.id, {
        subscription_status: 'active',
        subscription_start_at: NOW - 40 * DAY,
        subscription_end_at: NOW - 10 * DAY,
      });
      await pay(lapsed.token);
      expect(await findUserById(db(), lapsed.id)).toMatchObject({
        subscription_status: 'active',
        subscription_start_at: NOW,
        subscription_end_at: addMonths(NOW, 1),
      });
    });

    it("is 404 for another user's order, even with a valid signature", async () => {
      const owner = await signUp('victim');
      const thief = await signUp('thief');
      const { id } = await order(owner.token);
      const result = await checkout(owner.token, id);
      const res = await call('POST', '/api/payment/verify', { token: thief.token, body: result });
      expect(res.status).toBe(404);
      expect(await findUserById(db(), thief.id)).toMatchObject({ subscription_status: 'pending' });
      expect(await findUserById(db(), owner.id)).toMatchObject({ subscription_status: 'pending' });
    });
  });
});

describe('payment API with Razorpay keys configured', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: { RAZORPAY_KEY_ID: 'rzp_test_LiveModeKey01', RAZORPAY_KEY_SECRET: 'live_mode_secret_value' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no test checkout (404), and the secret never reaches /api/config', async () => {
    const reg = await t.request('POST', '/api/auth/register', { body: registration('live') });
    const res = await t.request('POST', '/api/payment/test-checkout', {
      token: reg.json.token as string,
      body: { orderId: 'order_anything' },
    });
    expect(res.status).toBe(404);
    const config = await t.request('GET', '/api/config');
    expect(config.json).toMatchObject({ paymentTestMode: false, razorpayKeyId: 'rzp_test_LiveModeKey01' });
    expect(config.text).not.toContain('live_mode_secret_value');
  });
});
