import { testDialects } from '../../db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminOfferDto, AdminPlanDto, AdminStrategyDto, ContactMessageDto } from '../../contract';
import { insertContactMessage, recordWebhookEvent } from '../../db';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';

const NOW = Date.UTC(2026, 10, 10, 6, 0);
const DAY = 86_400_000;

const parameters = {
  interval: 3,
  consecutiveCandles: 2,
  minMovement: 4,
  entryOffset: 1.5,
  stopLoss: 15,
  target: 30,
  maxLoss: 3000,
  orderType: 'SLM',
};

describe.each(testDialects())('admin plans, offers, gateway, strategies and inbox (%s)', (dialect) => {
  let t: TestServer;
  let admin: Caller;
  let trader: Caller;
  beforeAll(async () => {
    t = await startTestServer({ dialect });
    t.clock.set(NOW);
    admin = await signInFirstAdmin(t);
    trader = await registerTrader(t, 'c1');
  });
  afterAll(async () => {
    await t.close();
  });

  it('plans: the seeded three with only monthly on sale; an admin can put quarterly on sale', async () => {
    const plans = (await t.request('GET', '/api/admin/plans', { token: admin.token }))
      .json as unknown as AdminPlanDto[];
    expect(plans.map((p) => [p.code, p.pricePaise, p.months, p.active])).toEqual([
      ['monthly', 499_900, 1, true],
      ['quarterly', 1_299_900, 3, false],
      ['yearly', 4_999_900, 12, false],
    ]);
    expect(
      (
        await t.request('PATCH', '/api/admin/plans/quarterly', {
          token: admin.token,
          body: { pricePaise: 5 },
        })
      ).status,
    ).toBe(400);
    expect(
      (await t.request('PATCH', '/api/admin/plans/weekly', { token: admin.token, body: { active: true } }))
        .status,
    ).toBe(404);
    const res = await t.request('PATCH', '/api/admin/plans/quarterly', {
      token: admin.token,
      body: { active: true },
    });
    expect(res.json).toMatchObject({ code: 'quarterly', active: true, totalPaise: 1_533_882 });
    expect(await t.server.deps.db.knex('logs').where({ description: 'Plan quarterly changed' })).toHaveLength(
      1,
    );
  });

  it('offers: a code is required; created with the spec defaults (10%, 30 days, 50 users), edited, validated', async () => {
    const offers = async () => (await t.request('GET', '/api/admin/offers', { token: admin.token })).json;
    for (const [body, field] of [
      [{ name: 'X', code: 'XX10', discountPercent: 150 }, 'discountPercent'],
      [{ name: 'X', code: 'XX12', discountPercent: 12.345 }, 'discountPercent'],
      [{ name: 'No code' }, 'code'],
      [{ name: 'X', code: 'X X' }, 'code'],
      [{ name: 'X', code: 'BOTH', discountPercent: 5, discountAmountPaise: 10_000 }, 'discountAmountPaise'],
      [{ name: 'X', code: 'HALF', discountAmountPaise: 50.5 }, 'discountAmountPaise'],
      [{ name: 'X', code: 'HUGE', discountAmountPaise: 499_850 }, 'discountAmountPaise'],
      [{ name: 'X', code: 'CAP', maxUsers: 0 }, 'maxUsers'],
      // The used count belongs to checkout: an unknown key is refused, named in the message.
      [{ name: 'X', code: 'USED', usedCount: 3 }, 'body'],
      [
        { name: 'X', code: 'BACK', validFrom: '2026-12-01T00:00:00Z', validTill: '2026-11-30T00:00:00Z' },
        'validTill',
      ],
      [{ name: 'X', code: 'WHEN', validTill: '30/11/2026' }, 'validTill'],
      [{ name: 'X', code: 'PLAN', planCode: 'weekly' }, 'planCode'],
    ] as const) {
      const bad = await t.request('POST', '/api/admin/offers', { token: admin.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json.field, JSON.stringify(bad.json)).toBe(field);
      if (field === 'body') expect(bad.json.message).toMatch(/usedCount/);
    }
    expect(await offers()).toEqual([]);

    const created = await t.request('POST', '/api/admin/offers', {
      token: admin.token,
      body: { name: 'Diwali', code: 'diwali10' },
    });
    expect(created.status).toBe(201);
    const offer = created.json.offer as AdminOfferDto;
    expect(offer).toMatchObject({
      code: 'DIWALI10',
      discountPercent: 10,
      discountAmountPaise: null,
      maxUsers: 50,
      usedCount: 0,
      active: true,
    });
    expect(Date.parse(offer.validTill ?? '')).toBe(NOW + 30 * DAY);

    // Codes are unique whatever their case.
    const twin = await t.request('POST', '/api/admin/offers', {
      token: admin.token,
      body: { name: 'Twin', code: 'Diwali10' },
    });
    expect(twin.status).toBe(400);
    expect(twin.json).toMatchObject({ field: 'code', message: expect.stringMatching(/already uses/) });

    // A PATCH changes only what it names: switching the active flag keeps the discount and the cap.
    await t.request('PATCH', `/api/admin/offers/${offer.id}`, {
      token: admin.token,
      body: { discountPercent: 15, maxUsers: 7, planCode: 'monthly' },
    });
    const toggled = await t.request('PATCH', `/api/admin/offers/${offer.id}`, {
      token: admin.token,
      body: { active: false },
    });
    expect(toggled.json.offer).toMatchObject({
      discountPercent: 15,
      maxUsers: 7,
      planCode: 'monthly',
      active: false,
    });

    // A fixed amount replaces the percentage; the window is checked against the stored other end.
    const fixed = await t.request('PATCH', `/api/admin/offers/${offer.id}`, {
      token: admin.token,
      body: { discountAmountPaise: 50_000, validFrom: '2026-11-20T18:30:00.000Z' },
    });
    expect(fixed.json.offer).toMatchObject({
      discountPercent: null,
      discountAmountPaise: 50_000,
      validFrom: '2026-11-20T18:30:00.000Z',
    });
    const backwards = await t.request('PATCH', `/api/admin/offers/${offer.id}`, {
      token: admin.token,
      body: { validTill: '2026-11-20T00:00:00.000Z' },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.json.field).toBe('validTill');
    expect(await offers()).toHaveLength(1);
    expect(
      (await t.request('PATCH', '/api/admin/offers/999', { token: admin.token, body: { active: false } }))
        .status,
    ).toBe(404);
  });

  it('offer redemptions: admins only, validated, an empty list for an offer nobody used', async () => {
    const created = await t.request('POST', '/api/admin/offers', {
      token: admin.token,
      body: { name: 'Quiet', code: 'QUIET5', discountPercent: 5 },
    });
    const id = (created.json.offer as AdminOfferDto).id;
    const path = `/api/admin/offers/${id}/redemptions`;
    expect((await t.request('GET', path)).status).toBe(401);
    expect((await t.request('GET', path, { token: trader.token })).status).toBe(403);
    const bad = await t.request('GET', `${path}?pageSize=500`, { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('pageSize');
    expect((await t.request('GET', '/api/admin/offers/999/redemptions', { token: admin.token })).status).toBe(
      404,
    );
    const ok = await t.request('GET', path, { token: admin.token });
    expect(ok.json).toMatchObject({ items: [], total: 0, offer: { code: 'QUIET5', usedCount: 0 } });
  });

  it('gateway: test mode without keys, and the last webhook received', async () => {
    await recordWebhookEvent(
      t.server.deps.db.knex,
      {
        provider: 'razorpay',
        event_id: 'evt_1',
        event_type: 'payment.captured',
        payload: '{}',
      },
      NOW - 60_000,
    );
    const res = await t.request('GET', '/api/admin/payment-gateway', { token: admin.token });
    expect(res.json).toMatchObject({
      mode: 'test',
      keyIdMasked: null,
      lastWebhookType: 'payment.captured',
      lastWebhookAt: new Date(NOW - 60_000).toISOString(),
      webhooksLast24h: 1,
    });
  });

  it('strategies: the built-in one listed with full parameters; create and edit reload the runtime', async () => {
    const list = (await t.request('GET', '/api/admin/strategies', { token: admin.token }))
      .json as unknown as AdminStrategyDto[];
    expect(list[0]).toMatchObject({
      builtIn: true,
      sides: 'BOTH',
      parameters: { stopLoss: 20, target: 40, interval: 1 },
    });
    const missing = await t.request('POST', '/api/admin/strategies', {
      token: admin.token,
      body: { name: '', description: '', sides: 'CE', parameters },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toContain('Please fill in strategy name and description.');
    const reload = vi.spyOn(t.server.deps.trading, 'reloadControls');
    try {
      const res = await t.request('POST', '/api/admin/strategies', {
        token: admin.token,
        body: { name: 'Calls only', description: 'Breakouts on the call side', sides: 'CE', parameters },
      });
      expect(res.status).toBe(201);
      const strategy = res.json.strategy as AdminStrategyDto;
      expect(strategy).toMatchObject({ kind: 'consecutive_breakout', sides: 'CE', active: true, parameters });
      const edited = await t.request('PATCH', `/api/admin/strategies/${strategy.id}`, {
        token: admin.token,
        body: { active: false, parameters: { target: 35 } },
      });
      expect(edited.json.strategy).toMatchObject({
        active: false,
        parameters: { ...parameters, target: 35 },
      });
      expect(reload).toHaveBeenCalledTimes(2);
    } finally {
      reload.mockRestore();
    }
    const badParams = await t.request('PATCH', `/api/admin/strategies/1`, {
      token: admin.token,
      body: { parameters: { orderType: 'ICEBERG' } },
    });
    expect(badParams.status).toBe(400);
    expect(badParams.json.field).toBe('parameters.orderType');
    // The built-in strategy runs on the admin controls: it shows them and its parameters are changed there.
    const builtInEdit = await t.request('PATCH', '/api/admin/strategies/1', {
      token: admin.token,
      body: { parameters: { target: 50 } },
    });
    expect(builtInEdit.status).toBe(400);
    expect(builtInEdit.json.field).toBe('parameters');
    await t.request('PUT', '/api/admin/control/stopLoss', { token: admin.token, body: { value: '25' } });
    const builtIn = (
      (await t.request('GET', '/api/admin/strategies', { token: admin.token }))
        .json as unknown as AdminStrategyDto[]
    )[0];
    expect(builtIn?.parameters.stopLoss).toBe(25);
  });

  it('bank details: admins save them (validated, audited), signed-in users read them', async () => {
    expect((await t.request('GET', '/api/bank-details')).status).toBe(401);
    expect((await t.request('GET', '/api/bank-details', { token: trader.token })).json.configured).toBe(
      false,
    );
    const details = {
      accountHolderName: 'OptionPilot Tech',
      accountNumber: '50100012345678',
      ifsc: 'hdfc0001234',
      bankName: 'HDFC Bank',
    };
    expect(
      (await t.request('POST', '/api/admin/bank-details', { token: trader.token, body: details })).status,
    ).toBe(403);
    const bad = await t.request('POST', '/api/admin/bank-details', {
      token: admin.token,
      body: { ...details, ifsc: 'HDFC1234' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('ifsc');
    const res = await t.request('POST', '/api/admin/bank-details', { token: admin.token, body: details });
    expect(res.json.bankDetails).toMatchObject({ configured: true, ifsc: 'HDFC0001234' });
    const read = await t.request('GET', '/api/bank-details', { token: trader.token });
    expect(read.json).toMatchObject({ accountNumber: '50100012345678', bankName: 'HDFC Bank' });
    expect(
      await t.server.deps.db.knex('logs').where('description', 'like', 'Bank details updated%'),
    ).toHaveLength(1);
  });

  it('contact inbox: paged with the unread count; marking read is audited', async () => {
    const db = t.server.deps.db.knex;
    await insertContactMessage(
      db,
      { name: 'Meera', email: 'meera@example.com', message: 'Do you support Dhan?' },
      NOW - 2000,
    );
    await insertContactMessage(
      db,
      { name: 'Arjun', email: 'arjun@example.com', message: 'Invoice please' },
      NOW - 1000,
    );
    const inbox = await t.request('GET', '/api/admin/contact-messages', { token: admin.token });
    expect(inbox.json).toMatchObject({ total: 2, unreadCount: 2 });
    const first = (inbox.json.items as ContactMessageDto[])[0];
    expect(first?.name).toBe('Arjun');
    expect(
      (await t.request('PATCH', `/api/admin/contact-messages/${first?.id}`, { token: admin.token, body: {} }))
        .status,
    ).toBe(400);
    const read = await t.request('PATCH', `/api/admin/contact-messages/${first?.id}`, {
      token: admin.token,
      body: { read: true },
    });
    expect((read.json.contactMessage as ContactMessageDto).readAt).not.toBeNull();
    const unread = await t.request('GET', '/api/admin/contact-messages?unread=true&search=dhan', {
      token: admin.token,
    });
    expect(unread.json).toMatchObject({ total: 1, unreadCount: 1 });
    expect((await t.request('GET', '/api/admin/contact-messages', { token: trader.token })).status).toBe(403);
  });
});
