import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { useSessionStore } from '../../stores/session';
import { useUiStore } from '../../stores/ui';
import { mockApi } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { IMAGE_REFUSED } from '../../lib/imageFile';
import { PaymentDialog } from './PaymentDialog';
import { sampleRequest, sampleUpiInfo } from './upiSamples';

async function openUpi() {
  window.localStorage.setItem('token', 'jwt');
  useSessionStore.setState({ token: 'jwt' });
  renderWithProviders(<PaymentDialog />);
  useUiStore.getState().openPaymentDialog();
  fireEvent.click(await screen.findByRole('button', { name: 'Pay by UPI' }));
}

function utrField() {
  return screen.getByLabelText(/^UTR number/) as HTMLInputElement;
}

describe('Pay by UPI', () => {
  beforeEach(resetLiveStore);
  afterEach(() => vi.unstubAllGlobals());

  it('shows the UPI id and the exact amount with GST, and submits a 12-digit UTR', async () => {
    const api = mockApi({
      'GET /api/payment/upi-request': { body: sampleUpiInfo() },
      'POST /api/payment/upi-request': {
        status: 201,
        body: { success: true, message: 'ok', request: sampleRequest() },
      },
    });
    await openUpi();
    expect((await screen.findByLabelText('UPI ID')).textContent).toBe('optionpilot@okaxis');
    expect(screen.getByLabelText('UPI amount').textContent).toBe('₹5,898.82');
    fireEvent.change(utrField(), { target: { value: '123456789012' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit payment' }));
    expect(await screen.findByText('Payment submitted')).toBeTruthy();
    expect(api.called('POST', '/api/payment/upi-request')[0]?.body).toEqual({ utrNumber: '123456789012' });
    expect(useLiveStore.getState().paymentRequest?.status).toBe('pending');
    await waitFor(() => expect(useUiStore.getState().paymentDialogOpen).toBe(false));
  });

  it('refuses a UTR that is not 12 digits without calling the server', async () => {
    const api = mockApi({ 'GET /api/payment/upi-request': { body: sampleUpiInfo() } });
    await openUpi();
    await screen.findByLabelText('UPI ID');
    fireEvent.change(utrField(), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit payment' }));
    expect(await screen.findByText('utrNumber must be the 12-digit UTR of the transfer')).toBeTruthy();
    expect(api.called('POST', '/api/payment/upi-request')).toHaveLength(0);
  });

  it('shows the server refusal of a UTR used before', async () => {
    mockApi({
      'GET /api/payment/upi-request': { body: sampleUpiInfo() },
      'POST /api/payment/upi-request': {
        status: 409,
        body: { error: 'duplicate_utr', message: 'This UTR was already used for a payment' },
      },
    });
    await openUpi();
    await screen.findByLabelText('UPI ID');
    fireEvent.change(utrField(), { target: { value: '123456789012' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit payment' }));
    expect(await screen.findByText('This UTR was already used for a payment')).toBeTruthy();
    expect(useUiStore.getState().paymentDialogOpen).toBe(true);
  });

  it('refuses a screenshot that is not an image by content', async () => {
    mockApi({ 'GET /api/payment/upi-request': { body: sampleUpiInfo() } });
    await openUpi();
    await screen.findByLabelText('UPI ID');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    const fake = new File(['not an image'], 'receipt.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [fake] } });
    expect(await screen.findByText(IMAGE_REFUSED)).toBeTruthy();
  });

  it('says so when a request is already under review, or UPI is not set up', async () => {
    mockApi({ 'GET /api/payment/upi-request': { body: sampleUpiInfo({ pending: true }) } });
    await openUpi();
    expect(await screen.findByText('You already have a payment waiting for review.')).toBeTruthy();
  });
});
