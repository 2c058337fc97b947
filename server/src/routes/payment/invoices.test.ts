// GET /api/payment/invoices and /invoices/:id/pdf: a test-mode checkout issues an invoice its buyer and admins can
// download; nobody else can, and bad input is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registration, startTestServer, type TestServer } from '../../testing/server';

describe('invoice downloads', () => {
  let t: TestServer;
  let buyer: string;
  let other: string;
  let admin: string;
  let invoiceId: number;

  beforeAll(async () => {
    t = await startTestServer({ env: { PUBLIC_URL: 'https://trade.example.in' } });
    buyer = (await t.request('POST', '/api/auth/register', { body: registration('inv1') })).json
      .token as string;
    other = (await t.request('POST', '/api/auth/register', { body: registration('inv2') })).json
      .token as string;
    const init = await t.request('POST', '/api/init-admin');
    const login = await t.request('POST', '/api/auth/admin-login', {
      body: { email: 'admin@trade.example.in', password: init.json.password },
    });
    admin = login.json.token as string;

    const order = await t.request('POST', '/api/payment/create-order', { token: buyer, body: {} });
    const checkout = await t.request('POST', '/api/payment/test-checkout', {
      token: buyer,
      body: { orderId: order.json.id },
    });
    const verified = await t.request('POST', '/api/payment/verify', { token: buyer, body: checkout.json });
    expect(verified.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the buyer its own invoice after a payment', async () => {
    const res = await t.request('GET', '/api/payment/invoices', { token: buyer });
    expect(res.status).toBe(200);
    const invoices = res.json.invoices as Array<{ id: number; number: string; totalPaise: number }>;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ totalPaise: 589_882, taxPaise: 89_982 });
    expect(invoices[0]!.number).toMatch(/^OP\/\d{2}-\d{2}\/00001$/);
    invoiceId = invoices[0]!.id;
    const none = await t.request('GET', '/api/payment/invoices', { token: other });
    expect(none.json.invoices).toEqual([]);
  });

  it('serves the PDF to the buyer and to an admin', async () => {
    for (const token of [buyer, admin]) {
      const res = await t.request('GET', `/api/payment/invoices/${invoiceId}/pdf`, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toContain('invoice-OP-');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.text.startsWith('%PDF-')).toBe(true);
    }
  });

  it("lists the buyer's payment history with its plan and invoice, and nobody else's", async () => {
    const res = await t.request('GET', '/api/payment/history', { token: buyer });
    expect(res.status).toBe(200);
    expect(res.json.payments).toEqual([
      {
        id: expect.any(Number),
        paidAt: expect.any(Number),
        method: 'test',
        planName: 'Professional Monthly',
        amountPaise: 589_882,
        status: 'captured',
        invoice: { id: invoiceId, number: expect.stringMatching(/^OP\/\d{2}-\d{2}\/00001$/) },
        refundedPaise: 0,
        creditNotes: [],
      },
    ]);
    expect((await t.request('GET', '/api/payment/history', { token: other })).json.payments).toEqual([]);
    expect((await t.request('GET', '/api/payment/history')).status).toBe(401);
  });

  it('hides the invoice from another user (404) and needs a token (401)', async () => {
    expect((await t.request('GET', `/api/payment/invoices/${invoiceId}/pdf`, { token: other })).status).toBe(
      404,
    );
    expect((await t.request('GET', `/api/payment/invoices/${invoiceId}/pdf`)).status).toBe(401);
    expect((await t.request('GET', '/api/payment/invoices')).status).toBe(401);
  });

  it('refuses an invalid id with 400 naming it', async () => {
    const res = await t.request('GET', '/api/payment/invoices/abc/pdf', { token: buyer });
    expect(res.status).toBe(400);
    expect(String(res.json.message)).toContain('id');
  });

  it('makes the invoice out to the state and GSTIN given at checkout (IGST across states)', async () => {
    const order = await t.request('POST', '/api/payment/create-order', {
      token: other,
      body: { buyer: { stateCode: '27', gstin: '27aaacb1234c1z9', name: 'Buyer Traders LLP' } },
    });
    expect(order.status).toBe(200);
    const checkout = await t.request('POST', '/api/payment/test-checkout', {
      token: other,
      body: { orderId: order.json.id },
    });
    expect(
      (await t.request('POST', '/api/payment/verify', { token: other, body: checkout.json })).status,
    ).toBe(200);
    const invoice = await t.server.deps.db.knex('invoices').orderBy('id', 'desc').first();
    expect(invoice).toMatchObject({
      place_of_supply: '27',
      recipient_gstin: '27AAACB1234C1Z9',
      recipient_name: 'Buyer Traders LLP',
      igst_paise: 89_982,
      cgst_paise: 0,
    });
  });

  it('refuses an unknown state or a GSTIN of another state with 400 and creates no order', async () => {
    const before = await t.server.deps.db.knex('payment_orders').count({ n: '*' });
    const badState = await t.request('POST', '/api/payment/create-order', {
      token: buyer,
      body: { buyer: { stateCode: '99' } },
    });
    expect(badState.status).toBe(400);
    expect(String(badState.json.message)).toContain('stateCode');
    const mismatch = await t.request('POST', '/api/payment/create-order', {
      token: buyer,
      body: { buyer: { stateCode: '29', gstin: '27AAACB1234C1Z9' } },
    });
    expect(mismatch.status).toBe(400);
    expect(String(mismatch.json.message)).toContain('gstin');
    expect(await t.server.deps.db.knex('payment_orders').count({ n: '*' })).toEqual(before);
  });
});
