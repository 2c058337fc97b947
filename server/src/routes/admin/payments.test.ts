import { testDialects } from '../../db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPaymentDto } from '../../contract';
import { insertPayment, insertPaymentRequest } from '../../db';
import { flagTestAccount } from '../../services/admin/testAccounts';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';

// 11:30 IST on Tuesday 10 Nov 2026.
const NOW = Date.UTC(2026, 10, 10, 6, 0);
const DAY = 86_400_000;

describe.each(testDialects())('GET /api/admin/payments (revenue) (%s)', (dialect) => {
  let t: TestServer;
  let admin: Caller;
  let asha: Caller;
  let tester: Caller;
  beforeAll(async () => {
    t = await startTestServer({ dialect });
    t.clock.set(NOW);
    admin = await signInFirstAdmin(t);
    asha = await registerTrader(t, 'r1');
    tester = await registerTrader(t, 'r2');
    const db = t.server.deps.db.knex;
    await flagTestAccount(db, { userId: tester.id, createdBy: admin.id, now: NOW });
    await insertPayment(db, {
      user_id: asha.id,
      method: 'razorpay',
      provider_payment_id: 'pay_1',
      amount_paise: 589_882,
      paid_at: NOW - 2 * DAY,
    });
    await insertPayment(db, {
      user_id: asha.id,
      method: 'upi',
      utr: '700000000001',
      amount_paise: 400_000,
      paid_at: NOW - 100 * DAY,
    });
    await insertPayment(db, {
      user_id: tester.id,
      method: 'test',
      amount_paise: 589_882,
      paid_at: NOW - DAY,
    });
    await insertPaymentRequest(
      db,
      { user_id: asha.id, utr_number: '700000000002', amount_paise: 589_882 },
      NOW - 3600_000,
    );
    const rejected = await insertPaymentRequest(
      db,
      { user_id: tester.id, utr_number: '700000000003', amount_paise: 589_882 },
      NOW - 2 * 3600_000,
    );
    await db('payment_requests')
      .where({ id: rejected.id })
      .update({ status: 'rejected', admin_notes: 'no such UTR' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('401/403/400 like every admin list', async () => {
    expect((await t.request('GET', '/api/admin/payments')).status).toBe(401);
    expect((await t.request('GET', '/api/admin/payments', { token: asha.token })).status).toBe(403);
    const bad = await t.request('GET', '/api/admin/payments?status=refunded', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('status');
  });

  it('lists payments and open requests newest first, with totals that leave test accounts out', async () => {
    const res = await t.request('GET', '/api/admin/payments', { token: admin.token });
    const items = res.json.items as AdminPaymentDto[];
    expect(items.map((i) => [i.kind, i.status, i.isTest])).toEqual([
      ['request', 'pending', false],
      ['request', 'rejected', true],
      ['payment', 'approved', true],
      ['payment', 'approved', false],
      ['payment', 'approved', false],
    ]);
    expect(res.json.totals).toEqual({
      grossPaise: 989_882,
      refundedPaise: 0,
      netPaise: 989_882,
      pendingPaise: 589_882,
      count: 3,
      averagePaise: 494_941,
    });
  });

  it('filters by status, period and search on the server', async () => {
    const pending = await t.request('GET', '/api/admin/payments?status=pending', { token: admin.token });
    expect(pending.json.total).toBe(1);
    const quarter = await t.request('GET', '/api/admin/payments?period=quarter&status=approved', {
      token: admin.token,
    });
    expect(quarter.json.total).toBe(2);
    expect((quarter.json.totals as { grossPaise: number }).grossPaise).toBe(589_882);
    const week = await t.request('GET', '/api/admin/payments?period=week', { token: admin.token });
    expect(week.json.total).toBe(4);
    const today = await t.request('GET', '/api/admin/payments?period=today', { token: admin.token });
    expect(today.json.total).toBe(2);
    const byUtr = await t.request('GET', '/api/admin/payments?search=700000000001', { token: admin.token });
    expect(byUtr.json.total).toBe(1);
    const range = await t.request('GET', '/api/admin/payments?from=2026-11-08&to=2026-11-08', {
      token: admin.token,
    });
    expect(range.json.total).toBe(1);
    const page2 = await t.request('GET', '/api/admin/payments?pageSize=2&page=3', { token: admin.token });
    expect(page2.json).toMatchObject({ total: 5, page: 3 });
    expect(page2.json.items).toHaveLength(1);
  });
});
