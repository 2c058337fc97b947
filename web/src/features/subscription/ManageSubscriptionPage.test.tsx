import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { PaymentHistoryItemDto, SubscriptionDto } from '@optionpilot/server/contract';
import { stopLiveData } from '../../live/liveData';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { useSessionStore } from '../../stores/session';
import { useUiStore } from '../../stores/ui';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/http';
import { SPEC_MONTHLY_PLAN } from '../payment/plans';
import { renderWithProviders } from '../../test/render';
import { ManageSubscriptionPage, renewalText } from './ManageSubscriptionPage';
import { invoiceFileName } from './subscriptionApi';

// No network socket in unit tests.
vi.mock('socket.io-client', () => ({
  io: vi.fn(() => ({ connected: false, on: vi.fn(), connect: vi.fn(), disconnect: vi.fn() })),
}));

const ACTIVE: SubscriptionDto = {
  status: 'active',
  plan: SPEC_MONTHLY_PLAN,
  startDate: '2026-11-02T04:30:00.000Z',
  endDate: '2026-12-02T04:30:00.000Z',
  amount: 5898.82,
  amountPaise: 589_882,
  daysLeft: 8,
};

const PAID: PaymentHistoryItemDto = {
  id: 7,
  paidAt: Date.parse('2026-11-02T04:30:00.000Z'),
  method: 'razorpay',
  planName: 'Professional Monthly',
  amountPaise: 589_882,
  status: 'captured',
  invoice: { id: 3, number: 'OP/26-27/00003' },
  refundedPaise: 0,
  creditNotes: [],
};

function renderPage() {
  return renderWithProviders(
    <MemoryRouter>
      <ManageSubscriptionPage />
    </MemoryRouter>,
  );
}

describe('Manage Subscription page', () => {
  beforeEach(() => {
    resetLiveStore();
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({
      token: 'jwt',
      user: makeUser({ subscriptionStatus: 'active' }),
      status: 'user',
    });
  });
  afterEach(() => {
    stopLiveData();
    useUiStore.getState().closePaymentDialog();
    vi.unstubAllGlobals();
  });

  it('shows the plan, status, dates in IST and renews through the payment dialog', async () => {
    mockApi({
      'GET /api/user/subscription': { body: ACTIVE },
      'GET /api/payment/history': { body: { payments: [PAID] } },
    });
    renderPage();
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(await within(plan).findByText('Professional Monthly')).toBeTruthy();
    expect(within(plan).getByText('Active')).toBeTruthy();
    // Ends row and the renewal sentence; 04:30 UTC is 10:00 IST, the same calendar day.
    expect(within(plan).getAllByText(/2 Dec 2026/)).toHaveLength(2);
    expect(within(plan).getByText(/2 Nov 2026/)).toBeTruthy();
    expect(within(plan).getByText(/8 days left/)).toBeTruthy();
    fireEvent.click(within(plan).getByRole('button', { name: 'Renew Subscription' }));
    expect(useUiStore.getState().paymentDialogOpen).toBe(true);
  });

  it('lists each payment with amount, method, status and a download of its GST invoice', async () => {
    const refunded: PaymentHistoryItemDto = {
      ...PAID,
      id: 6,
      method: 'upi',
      status: 'refunded',
      paidAt: Date.parse('2026-10-02T04:30:00.000Z'),
      invoice: null,
      refundedPaise: 589_882,
      creditNotes: [{ id: 2, number: 'OPC/26-27/00002', totalPaise: 589_882 }],
    };
    const api = mockApi({
      'GET /api/user/subscription': { body: ACTIVE },
      'GET /api/payment/history': { body: { payments: [PAID, refunded] } },
    });
    const pdf = new Blob(['%PDF-1.3'], { type: 'application/pdf' });
    const fetchMock = api.fetchMock;
    const created: string[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:invoice', revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      created.push(this.download);
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payment history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('₹5,898.82');
    expect(rows[0]!.textContent).toContain('Razorpay');
    expect(rows[0]!.textContent).toContain('Paid');
    expect(rows[0]!.textContent).toContain('02 Nov 2026, 10:00 IST');
    expect(rows[1]!.textContent).toContain('UPI transfer');
    expect(rows[1]!.textContent).toContain('Refunded');
    expect(rows[1]!.textContent).toContain('₹5,898.82 refunded');
    expect(
      within(rows[1]!)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Download credit note OPC/26-27/00002']);

    fetchMock.mockImplementationOnce(async () => new Response(pdf, { status: 200 }));
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Download invoice OP/26-27/00003' }));
    await waitFor(() => expect(created).toEqual(['invoice-OP-26-27-00003.pdf']));
    expect(fetchMock).toHaveBeenLastCalledWith('/api/payment/invoices/3/pdf', expect.anything());
    click.mockRestore();
  });

  it('says when there are no payments and offers Subscribe Now without a plan', async () => {
    mockApi({
      'GET /api/user/subscription': {
        body: { ...ACTIVE, status: 'inactive', plan: null, startDate: null, endDate: null, daysLeft: null },
      },
      'GET /api/payment/history': { body: { payments: [] } },
    });
    renderPage();
    expect(await screen.findByText('No payments yet.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Subscribe Now' })).toBeTruthy();
  });

  it('reloads the history when an approved payment arrives over the socket', async () => {
    const api = mockApi({
      'GET /api/user/subscription': { body: { ...ACTIVE, status: 'pending' } },
      'GET /api/payment/history': { body: { payments: [] } },
    });
    renderPage();
    await screen.findByText('No payments yet.');
    const before = api.called('GET', '/api/payment/history').length;
    act(() => useLiveStore.getState().setSubscription(ACTIVE));
    await waitFor(() => expect(api.called('GET', '/api/payment/history').length).toBe(before + 1));
    expect(await screen.findByRole('button', { name: 'Renew Subscription' })).toBeTruthy();
  });

  it('shows an error instead of an empty list when the history cannot load', async () => {
    mockApi({
      'GET /api/user/subscription': { body: ACTIVE },
      'GET /api/payment/history': { status: 503, body: { error: 'unavailable', message: 'Try again soon.' } },
    });
    renderPage();
    expect(await screen.findByText('Could not load your payments')).toBeTruthy();
    expect(screen.queryByText('No payments yet.')).toBeNull();
  });
});

describe('renewal wording and file names', () => {
  it('extends from the end date while active, starts today otherwise', () => {
    expect(renewalText(ACTIVE)).toContain('from that date');
    expect(renewalText({ ...ACTIVE, status: 'expired' })).toContain('starts it today');
    expect(renewalText(undefined)).toContain('starts it today');
  });

  it('names the PDF after the invoice number', () => {
    expect(invoiceFileName('OP/26-27/00042')).toBe('invoice-OP-26-27-00042.pdf');
  });
});
