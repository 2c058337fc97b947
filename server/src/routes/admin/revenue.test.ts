// Revenue after refunds (issue 18 item 3), through the real routes: a trader pays (test mode: payment, invoice),
// an admin refunds ₹1,000 (credit note), and the Revenue totals, the monthly summary and the Overview show gross,
// refunds and net with GST net of the credit note; the GST register CSV lists the invoice and the credit note.
// Admin-only on the server; bad queries are 400s naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminStatsDto, RevenueSummaryResponse } from '../../contract';
import { insertPayment } from '../../db';
import { testDialects } from '../../db/testing';
import { gstRegisterCsv, rupeesText } from '../../services/admin/revenueSummary';
import { mintToken } from '../../testing/accounts';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';

// 11:30 IST on Tuesday 10 Nov 2026.
const NOW = Date.UTC(2026, 10, 10, 6, 0);
const DAY = 86_400_000;
/** 1 Nov 2026 00:00 IST */
const NOV_START = Date.UTC(2026, 9, 31, 18, 30);

describe('rupeesText', () => {
  it('writes paise as plain rupees with two decimals, no grouping or symbol', () => {
    expect(rupeesText(449_910)).toBe('4499.10');
    expect(rupeesText(5)).toBe('0.05');
    expect(rupeesText(0)).toBe('0.00');
    expect(rupeesText(-100)).toBe('-1.00');
    expect(rupeesText(1_234_567_800)).toBe('12345678.00');
    expect(() => rupeesText(0.5)).toThrow(RangeError);
  });

  it('escapes a cell a spreadsheet would run as a formula, and quotes commas', () => {
    const csv = gstRegisterCsv([
      {
        kind: 'invoice',
        number: 'OP/26-27/00001',
        issued_at: NOW,
        original_number: null,
        original_issued_at: null,
        recipient_name: '=HYPERLINK("x"), Ltd',
        recipient_gstin: null,
        place_of_supply: '29',
        reason: null,
        rate_bp: 1800,
        taxable_paise: 100,
        cgst_paise: 9,
        sgst_paise: 9,
        igst_paise: 0,
        total_paise: 118,
      },
    ]);
    expect(csv.startsWith('\ufeffDocument type,Number,Date,')).toBe(true);
    expect(csv).toContain(`"'=HYPERLINK(""x""), Ltd"`);
    expect(csv).toContain('B2C,29-Karnataka,,18,1.00,0.09,0.09,0.00,1.18\r\n');
  });
});

describe.each(testDialects())('revenue net of refunds, by month, with GST (%s)', (dialect) => {
  let t: TestServer;
  let admin: Caller;
  let trader: Caller;
  beforeAll(async () => {
    t = await startTestServer({ dialect });
    t.clock.set(NOW);
    admin = await signInFirstAdmin(t);
    trader = await registerTrader(t, 'rev1');
    // The real path: a test-mode checkout records the payment and issues the tax invoice.
    const order = await t.request('POST', '/api/payment/create-order', { token: trader.token, body: {} });
    const checkout = await t.request('POST', '/api/payment/test-checkout', {
      token: trader.token,
      body: { orderId: order.json.id },
    });
    const verified = await t.request('POST', '/api/payment/verify', {
      token: trader.token,
      body: checkout.json,
    });
    if (verified.status !== 200) throw new Error(verified.text);
    const paymentId = Number((await t.server.deps.db.knex('payments').first('id')).id);
    // Sessions are short-lived: fresh tokens after each move of the clock.
    t.clock.set(NOW + DAY);
    admin.token = (await mintToken(t, admin.id)).token;
    const refund = await t.request('POST', `/api/admin/payments/${paymentId}/refund`, {
      token: admin.token,
      body: { amountPaise: 100_000, reason: 'Goodwill', endAction: 'keep' },
    });
    if (refund.status !== 200) throw new Error(refund.text);
    // Month edges in IST: the last instant of October and the first of November.
    const db = t.server.deps.db.knex;
    await insertPayment(db, {
      user_id: trader.id,
      method: 'upi',
      utr: '700000000011',
      amount_paise: 1_000,
      paid_at: NOV_START - 1,
    });
    await insertPayment(db, {
      user_id: trader.id,
      method: 'upi',
      utr: '700000000012',
      amount_paise: 2_000,
      paid_at: NOV_START,
    });
    t.clock.set(NOW + 2 * DAY);
    admin.token = (await mintToken(t, admin.id)).token;
    trader.token = (await mintToken(t, trader.id)).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('admin-only on the server; an invalid query is a 400 naming the parameter', async () => {
    for (const path of ['/api/admin/revenue/summary', '/api/admin/revenue/gst-register.csv']) {
      expect((await t.request('GET', path)).status).toBe(401);
      expect((await t.request('GET', path, { token: trader.token })).status).toBe(403);
      for (const [query, field] of [
        ['from=2026-13', 'from'],
        ['to=Nov', 'to'],
        ['from=2026-11&to=2026-10', 'to'],
        ['from=2020-01&to=2026-10', 'from'],
        ['month=2026-11', 'query'],
      ] as const) {
        const bad = await t.request('GET', `${path}?${query}`, { token: admin.token });
        expect(bad.status, `${path}?${query}`).toBe(400);
        expect(bad.json.field, `${path}?${query}: ${bad.text}`).toBe(field);
      }
    }
  });

  it('Revenue totals: gross, refunded and net', async () => {
    const res = await t.request('GET', '/api/admin/payments?period=all', { token: admin.token });
    expect(res.json.totals).toEqual({
      grossPaise: 589_882 + 1_000 + 2_000,
      refundedPaise: 100_000,
      netPaise: 589_882 + 3_000 - 100_000,
      pendingPaise: 0,
      count: 3,
      averagePaise: Math.round(592_882 / 3),
    });
  });

  it('the monthly summary: gross, refunds and net by IST month, GST net of the credit note', async () => {
    const res = await t.request('GET', '/api/admin/revenue/summary?from=2026-10&to=2026-11', {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    const body = res.json as unknown as RevenueSummaryResponse;
    expect(body.months.map((m) => m.month)).toEqual(['2026-10', '2026-11']);
    expect(body.months[0]).toMatchObject({ grossPaise: 1_000, refundsPaise: 0, netPaise: 1_000 });
    // Invoice 4,999.00 + CGST 449.91 + SGST 449.91; the ₹1,000 credit note takes 847.46 + 76.27 + 76.27 off.
    expect(body.months[1]).toEqual({
      month: '2026-11',
      grossPaise: 589_882 + 2_000,
      refundsPaise: 100_000,
      netPaise: 491_882,
      taxablePaise: 499_900 - 84_746,
      cgstPaise: 44_991 - 7_627,
      sgstPaise: 44_991 - 7_627,
      igstPaise: 0,
      invoiceCount: 1,
      creditNoteCount: 1,
    });
    expect(body.totals).toMatchObject({ grossPaise: 592_882, refundsPaise: 100_000, netPaise: 492_882 });

    // Defaults: the twelve IST months up to this one.
    const year = await t.request('GET', '/api/admin/revenue/summary', { token: admin.token });
    const months = (year.json as unknown as RevenueSummaryResponse).months;
    expect(months).toHaveLength(12);
    expect(months[0]?.month).toBe('2025-12');
    expect(months[11]?.month).toBe('2026-11');
  });

  it('the Overview: this month net of the refund, with gross, refunds and GST beside it', async () => {
    const res = await t.request('GET', '/api/admin/stats', { token: admin.token });
    const stats = res.json as unknown as AdminStatsDto;
    expect(stats).toMatchObject({
      monthlyRevenue: 491_882,
      monthlyGrossPaise: 591_882,
      monthlyRefundsPaise: 100_000,
      monthlyGst: { cgstPaise: 37_364, sgstPaise: 37_364, igstPaise: 0 },
    });
  });

  it('the GST register CSV: one row per invoice and per credit note, with their tax heads', async () => {
    const res = await t.request('GET', '/api/admin/revenue/gst-register.csv?from=2026-11&to=2026-11', {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="gst-register-2026-11-to-2026-11.csv"',
    );
    const lines = res.text.replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Document type,Number,Date,Original invoice number,Original invoice date,Recipient name,Recipient GSTIN,' +
        'Supply type,Place of supply,Reason,Rate (%),Taxable value,CGST,SGST,IGST,Total',
    );
    const name = 'Asha Rao';
    expect(lines.slice(1)).toEqual([
      `Tax invoice,OP/26-27/00001,10-11-2026,,,${name},,B2C,29-Karnataka,,18,4999.00,449.91,449.91,0.00,5898.82`,
      `Credit note,OPC/26-27/00001,11-11-2026,OP/26-27/00001,10-11-2026,${name},,B2C,29-Karnataka,Goodwill,18,847.46,76.27,76.27,0.00,1000.00`,
      '',
    ]);
    const october = await t.request('GET', '/api/admin/revenue/gst-register.csv?from=2026-10&to=2026-10', {
      token: admin.token,
    });
    expect(october.text.replace(/^\ufeff/, '').split('\r\n')).toHaveLength(2); // header, then nothing
  });
});
