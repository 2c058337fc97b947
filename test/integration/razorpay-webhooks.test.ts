// Live-mode payments against the fake Razorpay, with webhooks delivered the way Razorpay does: duplicated,
// reordered, delayed and racing the browser's verification. Whatever the interleaving, a payment activates
// once and issues one invoice; a forged delivery changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registration, startTestServer, type TestServer } from '@optionpilot/server/testing/server';
import { startFakeRazorpay, type FakeRazorpay } from '../fakes/razorpay/server';
import type { FakeWebhookSender } from '../fakes/razorpay/webhooks';

const WEBHOOK_SECRET = 'integration_webhook_secret';

describe('Razorpay live mode with webhooks', () => {
  let t: TestServer;
  let fake: FakeRazorpay;
  let hooks: FakeWebhookSender;

  beforeAll(async () => {
    fake = await startFakeRazorpay();
    t = await startTestServer({
      env: {
        RAZORPAY_KEY_ID: fake.keyId,
        RAZORPAY_KEY_SECRET: fake.keySecret,
        RAZORPAY_API_ROOT: fake.url,
        RAZORPAY_CHECKOUT_URL: fake.checkoutUrl,
        RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    hooks = fake.webhooks({ url: `${t.url}/api/payment/webhook`, secret: WEBHOOK_SECRET });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A new trader's order at Razorpay, paid through the fake checkout. */
  async function paidOrder(n: string) {
    const reg = await t.request('POST', '/api/auth/register', { body: registration(n) });
    const token = reg.json.token as string;
    const userId = (reg.json.user as { id: number }).id;
    const order = await t.request('POST', '/api/payment/create-order', { token, body: {} });
    expect(order.json).toMatchObject({ testMode: false, checkoutUrl: fake.checkoutUrl });
    const result = fake.checkout(order.json.id as string);
    return { token, userId, result };
  }

  const recorded = async (userId: number) => ({
    payments: (await t.server.deps.db.knex('payments').where({ user_id: userId })).length,
    invoices: (await t.server.deps.db.knex('invoices').where({ user_id: userId })).length,
    status: (
      (await t.server.deps.db.knex('users').where({ id: userId }).first()) as { subscription_status: string }
    ).subscription_status,
  });

  it('activates once when order.paid arrives before payment.captured, each delivered twice at once', async () => {
    const { userId, result } = await paidOrder('hook-reorder');
    const captured = hooks.event('payment.captured', result.razorpay_payment_id);
    const paid = hooks.event('order.paid', result.razorpay_payment_id);
    const inOrder = await hooks.deliverInOrder([paid, captured]);
    expect(inOrder.map((d) => d.status)).toEqual([200, 200]);
    const again = await hooks.duplicate(captured, 3, { concurrent: true });
    expect(again.every((d) => d.status === 200)).toBe(true);
    expect(await recorded(userId)).toEqual({ payments: 1, invoices: 1, status: 'active' });
  });

  it('a delayed webhook after the browser verified adds nothing', async () => {
    const { token, userId, result } = await paidOrder('hook-late');
    const verified = await t.request('POST', '/api/payment/verify', { token, body: result });
    expect(verified.status).toBe(200);
    const late = await hooks.delayed(hooks.event('payment.captured', result.razorpay_payment_id), 50);
    expect(late.status).toBe(200);
    expect(await recorded(userId)).toEqual({ payments: 1, invoices: 1, status: 'active' });
  });

  it('the browser verify racing the webhook: one activation, one invoice', async () => {
    const { token, userId, result } = await paidOrder('hook-race');
    const [verified, delivered] = await Promise.all([
      t.request('POST', '/api/payment/verify', { token, body: result }),
      hooks.deliver(hooks.event('payment.captured', result.razorpay_payment_id)),
    ]);
    expect(verified.status).toBe(200);
    expect(delivered.status).toBe(200);
    expect(await recorded(userId)).toEqual({ payments: 1, invoices: 1, status: 'active' });
  });

  it('refuses a delivery signed with another secret and activates nothing', async () => {
    const { userId, result } = await paidOrder('hook-forged');
    const forged = await hooks.deliver(hooks.event('payment.captured', result.razorpay_payment_id), {
      signatureSecret: 'not_the_webhook_secret',
    });
    expect(forged.status).toBe(400);
    expect(await recorded(userId)).toEqual({ payments: 0, invoices: 0, status: 'pending' });
  });
});
