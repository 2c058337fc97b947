import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
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
  },
];
const TOTALS = { approvedPaise: 589_882, pendingPaise: 589_882, count: 2, averagePaise: 589_882 };

describe('/admin/revenue', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows totals from the server and offers Approve/Reject only on pending requests', async () => {
    const api = mockApi({
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
    expect(screen.getByLabelText('Approved value').textContent).toBe('₹5,898.82');
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
});
