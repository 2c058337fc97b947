import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { SubscriptionDto } from '@optionpilot/server/contract';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { mockApi } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { PaymentReviewBanner, UPI_POLL_MS } from './PaymentReviewBanner';
import { sampleRequest, sampleUpiInfo } from './upiSamples';

const ACTIVE: SubscriptionDto = {
  status: 'active',
  plan: null,
  startDate: '2026-03-02T05:00:00.000Z',
  endDate: '2026-04-02T05:00:00.000Z',
  amount: 5898.82,
  amountPaise: 589_882,
  daysLeft: 31,
};

describe('Payment review banner', () => {
  beforeEach(() => {
    resetLiveStore();
    window.localStorage.setItem('token', 'jwt');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows "Payment under review" and, when the approval is pushed, takes the new subscription', async () => {
    const api = mockApi({
      'GET /api/payment/upi-request': { body: sampleUpiInfo({ pending: true, requests: [sampleRequest()] }) },
      'GET /api/user/subscription': { body: ACTIVE },
    });
    useLiveStore.getState().setConnection('connected');
    renderWithProviders(<PaymentReviewBanner />);
    expect(await screen.findByText('Payment under review')).toBeTruthy();
    act(() => useLiveStore.getState().applyPaymentRequest(sampleRequest({ status: 'approved' })));
    expect(screen.queryByText('Payment under review')).toBeNull();
    await vi.waitFor(() => expect(useLiveStore.getState().subscription?.status).toBe('active'));
    expect(api.called('GET', '/api/user/subscription')).toHaveLength(1);
  });

  it("shows the admin's note of a rejection", async () => {
    mockApi({
      'GET /api/payment/upi-request': {
        body: sampleUpiInfo({
          requests: [sampleRequest({ status: 'rejected', adminNotes: 'UTR not found in statement' })],
        }),
      },
    });
    useLiveStore.getState().setConnection('connected');
    renderWithProviders(<PaymentReviewBanner />);
    expect(await screen.findByText('Payment rejected')).toBeTruthy();
    expect(screen.getByText('UTR not found in statement')).toBeTruthy();
  });

  it('polls a pending request while the socket is down', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: 'pending' | 'approved' = 'pending';
    const api = mockApi({
      'GET /api/payment/upi-request': () => ({
        body: sampleUpiInfo({ requests: [sampleRequest({ status })] }),
      }),
      'GET /api/user/subscription': { body: ACTIVE },
    });
    useLiveStore.getState().setConnection('connecting');
    renderWithProviders(<PaymentReviewBanner />);
    expect(await screen.findByText('Payment under review')).toBeTruthy();
    act(() => useLiveStore.getState().setConnection('disconnected'));
    status = 'approved';
    await act(async () => {
      await vi.advanceTimersByTimeAsync(UPI_POLL_MS);
    });
    await vi.waitFor(() => expect(useLiveStore.getState().subscription?.status).toBe('active'));
    expect(api.called('GET', '/api/payment/upi-request').length).toBeGreaterThanOrEqual(2);
  });
});
