import { testDialects } from '../../db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminUserDetailDto, AdminUserDto } from '../../contract';
import { findBrokerAccountByUser } from '../../db';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { assertNoSecrets, startTestServer, type TestServer } from '../../testing/server';
import { connected, openSocket } from '../../testing/socket';

const NOW = Date.UTC(2026, 10, 10, 6, 0);

describe.each(testDialects())('admin users (%s)', (dialect) => {
  let t: TestServer;
  let admin: Caller;
  let asha: Caller;
  let ravi: Caller;
  beforeAll(async () => {
    t = await startTestServer({ dialect });
    t.clock.set(NOW);
    admin = await signInFirstAdmin(t);
    asha = await registerTrader(t, 'u1');
    ravi = await registerTrader(t, 'u2');
    await t.server.deps.db
      .knex('users')
      .where({ id: ravi.id })
      .update({ first_name: 'Ravi', last_name: 'Kumar' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('401 without a token, 403 for a trader, 400 for a bad filter', async () => {
    expect((await t.request('GET', '/api/admin/users')).status).toBe(401);
    expect((await t.request('GET', '/api/admin/users', { token: asha.token })).status).toBe(403);
    const bad = await t.request('GET', '/api/admin/users?status=sleeping', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('status');
    const badRole = await t.request('GET', '/api/admin/users?role=owners', { token: admin.token });
    expect(badRole.status).toBe(400);
    expect(badRole.json.field).toBe('role');
  });

  it('searches by e-mail or name and filters by status on the server, with summary counts', async () => {
    const byName = await t.request('GET', '/api/admin/users?search=ravi kumar', { token: admin.token });
    expect(byName.json.total).toBe(1);
    expect((byName.json.items as AdminUserDto[])[0]?.email).toBe(ravi.email);
    const byEmail = await t.request('GET', '/api/admin/users?search=ASHAU1', { token: admin.token });
    expect(byEmail.json.total).toBe(1);
    const pending = await t.request('GET', '/api/admin/users?status=pending&pageSize=1', {
      token: admin.token,
    });
    // The admin's own subscription is pending like any new account's, but an admin is not a customer.
    expect(pending.json.total).toBe(2);
    expect(pending.json.items).toHaveLength(1);
    expect(pending.json.summary).toEqual({
      total: 2,
      active: 0,
      pendingPayments: 0,
      newThisMonth: 2,
      admins: 1,
    });
    const noBroker = await t.request('GET', '/api/admin/users?broker=none', { token: admin.token });
    expect(noBroker.json.total).toBe(2);
  });

  it('lists admins apart from the customers (role=admins), whatever the status filter', async () => {
    const customers = await t.request('GET', '/api/admin/users?pageSize=100', { token: admin.token });
    const customerIds = (customers.json.items as AdminUserDto[]).map((u) => u.id);
    expect(customerIds).not.toContain(admin.id);
    expect(customerIds).toEqual(expect.arrayContaining([asha.id, ravi.id]));
    const admins = await t.request('GET', '/api/admin/users?role=admins&status=active', {
      token: admin.token,
    });
    expect(admins.status).toBe(200);
    expect((admins.json.items as AdminUserDto[]).map((u) => [u.id, u.isAdmin])).toEqual([[admin.id, true]]);
    // An admin whose own subscription is active still counts in no customer figure.
    const figures = async () => ({
      activeUsers: (await t.request('GET', '/api/admin/stats', { token: admin.token })).json.activeUsers,
      summary: (await t.request('GET', '/api/admin/users', { token: admin.token })).json.summary,
    });
    const before = await figures();
    await t.server.deps.db
      .knex('users')
      .where({ id: admin.id })
      .update({ subscription_status: 'active', subscription_end_at: NOW + 86_400_000 });
    try {
      expect(await figures()).toEqual(before);
    } finally {
      await t.server.deps.db
        .knex('users')
        .where({ id: admin.id })
        .update({ subscription_status: 'pending', subscription_end_at: null });
    }
  });

  it('refuses to activate a subscription for an admin, and changes nothing', async () => {
    const res = await t.request('POST', `/api/admin/users/${admin.id}/activate`, {
      token: admin.token,
      body: { reason: 'by mistake' },
    });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: 'admin_not_customer' });
    const row = await t.server.deps.db.knex('users').where({ id: admin.id }).first();
    expect(row.subscription_status).toBe('pending');
    expect(await t.server.deps.db.knex('subscriptions').where({ user_id: admin.id })).toEqual([]);
  });

  it('PATCH edits the fields, replaces broker credentials sealed and masked, and audits before → after', async () => {
    const invalid = await t.request('PATCH', `/api/admin/users/${asha.id}`, {
      token: admin.token,
      body: { email: 'not-an-email' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json.field).toBe('email');
    const half = await t.request('PATCH', `/api/admin/users/${asha.id}`, {
      token: admin.token,
      body: { brokerApiKey: 'kite_api_key_1234' },
    });
    expect(half.status).toBe(400);

    const res = await t.request('PATCH', `/api/admin/users/${asha.id}`, {
      token: admin.token,
      body: {
        firstName: 'Asha K',
        brokerType: 'zerodha',
        brokerApiKey: 'kite_api_key_1234',
        brokerApiSecret: 'kite_secret_value_9876',
        paymentDetails: {
          utrNumber: '612345678901',
          paymentMethod: 'bank_transfer',
          amountPaise: 589_882,
          paymentDate: '2026-11-09T10:00:00.000Z',
        },
      },
    });
    expect(res.status).toBe(200);
    assertNoSecrets(res.text);
    expect(res.text).not.toContain('kite_secret_value');
    expect(res.text).not.toContain('kite_api_key_1234');
    const user = res.json.user as AdminUserDto;
    expect(user).toMatchObject({ firstName: 'Asha K', brokerType: 'zerodha' });
    expect(user.broker?.apiKeyMasked).toBe('••••1234');
    expect(user.paymentDetails).toMatchObject({
      utrNumber: '612345678901',
      paymentMethod: 'bank_transfer',
      amount: 5898.82,
    });
    const account = await findBrokerAccountByUser(t.server.deps.db.knex, asha.id);
    expect(account?.api_secret_enc).not.toContain('kite_secret');
    const log = await t.server.deps.db
      .knex('logs')
      .where('description', 'like', `User ${asha.email} edited%`)
      .first();
    expect(log.actor_id).toBe(admin.id);
    expect(JSON.parse(log.data as string)).toMatchObject({ firstName: 'Asha → Asha K' });
    expect(log.data).not.toContain('kite_secret');
    // The payment went the way of every verified payment: subscription opened for the plan, GST invoice issued.
    expect(user).toMatchObject({ subscriptionStatus: 'active' });
    const invoices = await t.server.deps.db.knex('invoices').where({ user_id: asha.id });
    expect(invoices).toHaveLength(1);
    expect(Number(invoices[0].total_paise)).toBe(589_882);
    expect(JSON.parse(log.data as string).paymentDetails).toContain(invoices[0].number);

    // The same UTR again changes nothing; another user's UTR is refused.
    const again = await t.request('PATCH', `/api/admin/users/${asha.id}`, {
      token: admin.token,
      body: {
        paymentDetails: {
          utrNumber: '612345678901',
          paymentMethod: 'bank_transfer',
          amountPaise: 589_882,
          paymentDate: '2026-11-09T10:00:00.000Z',
        },
      },
    });
    expect(again.status).toBe(200);
    expect(await t.server.deps.db.knex('invoices').where({ user_id: asha.id })).toHaveLength(1);
    const stolen = await t.request('PATCH', `/api/admin/users/${ravi.id}`, {
      token: admin.token,
      body: {
        paymentDetails: {
          utrNumber: '612345678901',
          paymentMethod: 'upi',
          amountPaise: 589_882,
          paymentDate: '2026-11-09T10:00:00.000Z',
        },
      },
    });
    expect(stolen.status).toBe(409);
    expect(stolen.json.field).toBe('paymentDetails.utrNumber');
  });

  it('GET /api/admin/users/:id shows personal, broker, subscription and payment details without secrets', async () => {
    const res = await t.request('GET', `/api/admin/users/${asha.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    assertNoSecrets(res.text);
    const detail = res.json as unknown as AdminUserDetailDto;
    expect(detail.broker?.apiKeyMasked).toBe('••••1234');
    expect(detail.payments).toHaveLength(1);
    expect(detail.payments[0]).toMatchObject({
      method: 'bank_transfer',
      status: 'approved',
      amountPaise: 589_882,
    });
    expect((await t.request('GET', '/api/admin/users/999999', { token: admin.token })).status).toBe(404);
    expect((await t.request('GET', '/api/admin/users/abc', { token: admin.token })).status).toBe(400);
  });

  it('Activate opens a pending user’s subscription with the reason audited; twice is refused', async () => {
    const noReason = await t.request('POST', `/api/admin/users/${ravi.id}/activate`, {
      token: admin.token,
      body: {},
    });
    expect(noReason.status).toBe(400);
    expect(noReason.json.field).toBe('reason');
    const onUserChanged = vi.spyOn(t.server.deps.trading, 'onUserChanged');
    try {
      const res = await t.request('POST', `/api/admin/users/${ravi.id}/activate`, {
        token: admin.token,
        body: { reason: 'Paid by cheque at the office' },
      });
      expect(res.status).toBe(200);
      expect((res.json.user as AdminUserDto).subscriptionStatus).toBe('active');
      expect(onUserChanged).toHaveBeenCalledWith(ravi.id);
    } finally {
      onUserChanged.mockRestore();
    }
    const log = await t.server.deps.db
      .knex('logs')
      .where('description', 'like', '%Paid by cheque at the office')
      .first();
    expect(log.actor_id).toBe(admin.id);
    const again = await t.request('POST', `/api/admin/users/${ravi.id}/activate`, {
      token: admin.token,
      body: { reason: 'again' },
    });
    expect(again.status).toBe(409);
    expect((await t.request('GET', '/api/user/subscription', { token: ravi.token })).json.status).toBe(
      'active',
    );
  });

  it('setting a password signs the user out everywhere, sockets included', async () => {
    const weak = await t.request('POST', `/api/admin/users/${ravi.id}/password`, {
      token: admin.token,
      body: { newPassword: 'short' },
    });
    expect(weak.status).toBe(400);
    const socket = await connected(openSocket(t.url, ravi.token));
    const revoked = new Promise<{ reason: string }>((resolve) => socket.once('session:revoked', resolve));
    const res = await t.request('POST', `/api/admin/users/${ravi.id}/password`, {
      token: admin.token,
      body: { newPassword: 'NewSecret123' },
    });
    expect(res.status).toBe(200);
    expect((await revoked).reason).toBe('password_changed');
    socket.disconnect();
    expect((await t.request('GET', '/api/auth/me', { token: ravi.token })).status).toBe(401);
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: ravi.email, password: 'NewSecret123' },
    });
    expect(login.status).toBe(200);
    ravi = { ...ravi, token: login.json.token as string };
  });

  it('send-reset-link returns the link in mail test mode', async () => {
    const res = await t.request('POST', `/api/admin/users/${asha.id}/send-reset-link`, {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.json.resetLink).toMatch(/reset-password\?token=/);
  });

  it('deactivate ends the sessions and blocks sign-in; reactivate restores it; an admin cannot deactivate itself', async () => {
    expect(
      (await t.request('POST', `/api/admin/users/${admin.id}/deactivate`, { token: admin.token })).status,
    ).toBe(400);
    const res = await t.request('POST', `/api/admin/users/${ravi.id}/deactivate`, { token: admin.token });
    expect((res.json.user as AdminUserDto).disabled).toBe(true);
    expect((await t.request('GET', '/api/auth/me', { token: ravi.token })).status).toBe(401);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: ravi.email, password: 'NewSecret123' } }))
        .status,
    ).not.toBe(200);
    const back = await t.request('POST', `/api/admin/users/${ravi.id}/reactivate`, { token: admin.token });
    expect((back.json.user as AdminUserDto).disabled).toBe(false);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: ravi.email, password: 'NewSecret123' } }))
        .status,
    ).toBe(200);
  });

  it('create-test-user makes a paper account with an active demo subscription, flagged and left out of counts', async () => {
    const before = (await t.request('GET', '/api/admin/users', { token: admin.token })).json.summary as {
      total: number;
      active: number;
    };
    const res = await t.request('POST', '/api/admin/create-test-user', { token: admin.token, body: {} });
    expect(res.status).toBe(201);
    const user = res.json.user as AdminUserDto;
    expect(user).toMatchObject({ isTest: true, subscriptionStatus: 'active', brokerType: null });
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: user.email, password: res.json.password },
    });
    expect(login.status).toBe(200);
    const status = await t.request('GET', '/api/user/bot-status', { token: login.json.token as string });
    expect(status.json.mode).toBe('paper');
    const after = (await t.request('GET', '/api/admin/users', { token: admin.token })).json.summary;
    expect(after).toMatchObject({ total: before.total, active: before.active });
    expect(
      (await t.request('POST', '/api/admin/create-test-user', { token: admin.token, body: { days: 1000 } }))
        .status,
    ).toBe(400);
  });
});
