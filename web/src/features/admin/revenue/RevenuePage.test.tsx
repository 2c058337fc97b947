import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminPaymentDto } from '@optionpilot/server/contract';
import { mockApi } from '../../../test/http';
import { pageOf, renderAdminPage } from '../test/renderAdmin';
import { RevenuePage } from './RevenuePage';

const USER = { id: 7, firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' };
const ROWS: AdminPaymentDto[] = [
  {
    key: 'request-5',
    kind: 'request',
    paymentId: null,
    paymentRequestId: 5,
    user: USER,
    method: 'upi',
    status: 'pending',
    amount: 5898.82,
    amountPaise: 589_882,
    utrNumber: '123456789012',
    planCode: 'monthly',
    at: '2026-03-02T05:00:00.000Z',
    isTest: false,
    refundedPaise: 0,
  },
  {
    key: 'payment-9',
    kind: 'payment',
    paymentId: 9,
    paymentRequestId: null,
    user: USER,
    method: 'razorpay',
    status: 'approved',
    amount: 5898.82,
    amountPaise: 589_882,
    utrNumber: null,
    planCode: 'monthly',
    at: '2026-02-02T05:00:00.000Z',
    isTest: false,
    refundedPaise: 0,
  },
];
const TOTALS = {
  grossPaise: 589_882,
  refundedPaise: 100_000,
  netPaise: 489_882,
  pendingPaise: 589_882,
  count: 2,
  averagePaise: 589_882,
};
const FIGURES = {
  grossPaise: 589_882,
  refundsPaise: 100_000,
  netPaise: 489_882,
  taxablePaise: 415_154,
  cgstPaise: 37_364,
  sgstPaise: 37_364,
  igstPaise: 0,
  invoiceCount: 1,
  creditNoteCount: 1,
};
const ZERO = {
  ...FIGURES,
  grossPaise: 0,
  refundsPaise: 0,
  netPaise: 0,
  taxablePaise: 0,
  cgstPaise: 0,
  sgstPaise: 0,
};
const SUMMARY = {
  from: '2026-10',
  to: '2026-11',
  months: [
    { month: '2026-10', ...ZERO, invoiceCount: 0, creditNoteCount: 0 },
    { month: '2026-11', ...FIGURES },
  ],
  totals: FIGURES,
};

describe('/admin/revenue', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows totals from the server and offers Approve/Reject only on pending requests', async () => {
    const api = mockApi({
      'GET /api/admin/revenue/summary': { body: SUMMARY },
      'GET /api/admin/payments?page=1&pageSize=25': { body: pageOf(ROWS, { totals: TOTALS }) },
      'PATCH /api/admin/payment-requests/5': {
        status: 400,
        body: {
          error: 'validation',
          message: 'adminNotes are required when rejecting, so the trader knows why',
          field: 'adminNotes',
        },
      },
    });
    renderAdminPage(<RevenuePage />);
    const table = await screen.findByRole('table', { name: 'Payments' });
    expect(screen.getByLabelText('Gross value').textContent).toBe('₹5,898.82');
    expect(screen.getByLabelText('Refunded value').textContent).toBe('₹1,000.00');
    expect(screen.getByLabelText('Net value').textContent).toBe('₹4,898.82');
    expect(screen.getByLabelText('Payments value').textContent).toBe('2');
    expect(within(table).getAllByRole('button', { name: 'Approve' })).toHaveLength(1);
    expect(within(table).getAllByRole('button', { name: 'View' })).toHaveLength(2);
    fireEvent.click(within(table).getByRole('button', { name: 'Reject' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(
      await screen.findByText('adminNotes are required when rejecting, so the trader knows why'),
    ).toBeTruthy();
    expect(api.called('PATCH', '/api/admin/payment-requests/5')[0]?.body).toEqual({ status: 'rejected' });
  });

  it('sends the period filter to the server', async () => {
    const api = mockApi({
      'GET /api/admin/revenue/summary': { body: SUMMARY },
      'GET /api/admin/payments?page=1&pageSize=25': { body: pageOf(ROWS, { totals: TOTALS }) },
      'GET /api/admin/payments?page=1&pageSize=25&period=quarter': {
        body: pageOf([], { totals: { ...TOTALS, count: 0 } }),
      },
    });
    renderAdminPage(<RevenuePage />);
    await screen.findByRole('table', { name: 'Payments' });
    fireEvent.click(screen.getByRole('combobox', { name: 'Period' }));
    fireEvent.click(await screen.findByRole('option', { name: 'This quarter' }));
    expect(await screen.findByText('No payments match.')).toBeTruthy();
    expect(api.called('GET', '/api/admin/payments?page=1&pageSize=25&period=quarter')).toHaveLength(1);
  });

  it('refunds part of a payment with a reason and a subscription choice, then reloads', async () => {
    const refunded = { ...ROWS[1]!, refundedPaise: 100_000 };
    let listed = 0;
    const api = mockApi({
      'GET /api/admin/revenue/summary': { body: SUMMARY },
      'GET /api/admin/payments?page=1&pageSize=25': () => ({
        body: pageOf(listed++ === 0 ? ROWS : [ROWS[0]!, refunded], { totals: TOTALS }),
      }),
      'POST /api/admin/payments/9/refund': {
        body: {
          success: true,
          message: 'Refund recorded; credit note OPC/26-27/00001 issued.',
          refund: { id: 1 },
          creditNote: { id: 1, number: 'OPC/26-27/00001' },
        },
      },
    });
    renderAdminPage(<RevenuePage />);
    const table = await screen.findByRole('table', { name: 'Payments' });
    // Only the recorded payment can be refunded, not the pending request.
    expect(within(table).getAllByRole('button', { name: 'Refund' })).toHaveLength(1);
    fireEvent.click(within(table).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund payment' });
    expect(within(dialog).getByText(/₹5,898.82 can still be refunded/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Amount (₹)'), { target: { value: '1000' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Duplicate charge' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('₹1,000.00 refunded')).toBeTruthy();
    expect(api.called('POST', '/api/admin/payments/9/refund')[0]?.body).toEqual({
      amountPaise: 100_000,
      reason: 'Duplicate charge',
      endAction: 'keep',
    });
  });

  it('shows revenue by IST month, net of refunds with the GST heads, and asks for another range', async () => {
    const api = mockApi({
      'GET /api/admin/revenue/summary': { body: SUMMARY },
      'GET /api/admin/revenue/summary?from=2026-06&to=2026-11': { body: { ...SUMMARY, from: '2026-06' } },
      'GET /api/admin/payments?page=1&pageSize=25': { body: pageOf(ROWS, { totals: TOTALS }) },
    });
    renderAdminPage(<RevenuePage />);
    const table = await screen.findByRole('table', { name: 'Revenue by month' });
    const november = within(table).getByRole('row', { name: /Nov 2026/ });
    expect(
      within(november)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'Nov 2026',
      '₹5,898.82',
      '−₹1,000.00',
      '₹4,898.82',
      '₹4,151.54',
      '₹373.64',
      '₹373.64',
      '₹0.00',
    ]);
    expect((screen.getByLabelText('From month') as HTMLInputElement).value).toBe('2026-10');
    fireEvent.change(screen.getByLabelText('From month'), { target: { value: '2026-06' } });
    await waitFor(() =>
      expect(api.called('GET', '/api/admin/revenue/summary?from=2026-06&to=2026-11')).toHaveLength(1),
    );
  });
});
