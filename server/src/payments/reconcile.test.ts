// Reconciliation of Razorpay orders left `created`: a capture the browser never reported activates once (a later
// verify adds nothing), an order younger than 15 minutes is left alone, one without a capture after a day expires,
// and test mode asks nobody.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../test/fakes/razorpay/server';
import { findUserById, listPayments } from '../db';
import { createAccount } from '../testing/accounts';
import { startTestServer, type TestServer } from '../testing/server';
import { createRazorpayGateway, createTestGateway } from './gateway';
import { ORDER_ABANDONED_MS, RECONCILE_AFTER_MS, reconcileOrders } from './reconcile';
import { createPaymentOrder, verifyPayment } from './service';

describe('order reconciliation', () => {
  let t: TestServer;
  let fake: FakeRazorpay;
  const changed: number[] = [];
  const onUserChanged = async (id: number) => {
    changed.push(id);
  };
  beforeAll(async () => {
    fake = await startFakeRazorpay();
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  const gateway = () =>
    createRazorpayGateway({ keyId: fake.keyId, keySecret: fake.keySecret, apiRoot: fake.url });

  it('activates a captured order nobody reported, once, after 15 minutes; a later verify adds nothing', async () => {
    const deps = t.server.deps;
    const userId = await createAccount(t, 'closed-window@example.com');
    const { response } = await createPaymentOrder({ deps, gateway: gateway(), userId, input: {} });
    const paid = fake.checkout(response.id); // the browser closed before verify

    expect(await reconcileOrders({ deps, gateway: gateway(), onUserChanged })).toMatchObject({ checked: 0 });
    t.clock.set(t.clock.now() + RECONCILE_AFTER_MS + 1);
    const first = await reconcileOrders({ deps, gateway: gateway(), onUserChanged });
    expect(first).toMatchObject({ checked: 1, activatedUserIds: [userId] });
    expect(changed).toContain(userId);
    expect((await findUserById(deps.db.knex, userId))?.subscription_status).toBe('active');
    expect(await reconcileOrders({ deps, gateway: gateway(), onUserChanged })).toMatchObject({ checked: 0 });

    const late = await verifyPayment({ deps, gateway: gateway(), userId, input: paid, onUserChanged });
    expect(late.activated).toBe(false);
    const payments = await listPayments(deps.db.knex, { userId });
    expect(payments).toHaveLength(1);
    expect(await deps.db.knex('invoices').where({ user_id: userId })).toHaveLength(1);
    const log = await deps.db
      .knex('logs')
      .where({ user_id: userId })
      .where('description', 'like', '%reconciliation%');
    expect(log).toHaveLength(1);
  });

  it('expires an order with no capture after a day, and asks nobody in test mode', async () => {
    const deps = t.server.deps;
    const userId = await createAccount(t, 'abandoned@example.com');
    const { order } = await createPaymentOrder({ deps, gateway: gateway(), userId, input: {} });
    t.clock.set(t.clock.now() + RECONCILE_AFTER_MS + 1);
    const pending = await reconcileOrders({ deps, gateway: gateway(), onUserChanged });
    expect(pending).toMatchObject({ checked: 1, activatedUserIds: [], expired: 0 });
    t.clock.set(t.clock.now() + ORDER_ABANDONED_MS);
    expect(await reconcileOrders({ deps, gateway: gateway(), onUserChanged })).toMatchObject({ expired: 1 });
    expect(await deps.db.knex('payment_orders').where({ id: order.id }).first()).toMatchObject({
      status: 'expired',
    });

    const asked = fake.requests.length;
    expect(await reconcileOrders({ deps, gateway: createTestGateway('s'), onUserChanged })).toMatchObject({
      checked: 0,
    });
    expect(fake.requests.length).toBe(asked);
  });
});
