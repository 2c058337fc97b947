import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UpiSettingsDto } from '@optionpilot/server/contract';
import { IMAGE_REFUSED } from '../../../lib/imageFile';
import { mockApi } from '../../../test/http';
import { sampleRequest } from '../../payment/upiSamples';
import { pageOf, renderAdminPage } from '../test/renderAdmin';
import { PaymentsPage } from './PaymentsPage';

const SETTINGS: UpiSettingsDto = {
  configured: true,
  upiId: 'optionpilot@okaxis',
  accountHolderName: 'OptionPilot Technologies',
  qrCodeImage: null,
  updatedAt: '2026-03-01T00:00:00.000Z',
};
const PENDING = sampleRequest({ id: 5 });
const APPROVED = sampleRequest({ id: 4, status: 'approved', utrNumber: '999999999999' });
const REQUESTS = 'GET /api/admin/payment-requests?page=1&pageSize=20&status=pending';

function routes(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/upi-settings': { body: SETTINGS },
    [REQUESTS]: { body: pageOf([PENDING, APPROVED]) },
    ...extra,
  });
}

describe('/admin/payments', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('validates the UPI id as name@handle before saving', async () => {
    const api = routes();
    renderAdminPage(<PaymentsPage />);
    const upi = (await screen.findByLabelText('UPI ID')) as HTMLInputElement;
    await waitFor(() => expect(upi.value).toBe('optionpilot@okaxis'));
    fireEvent.change(upi, { target: { value: 'not-an-upi-id' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save UPI Settings' }));
    expect(await screen.findByText('upiId must look like name@handle')).toBeTruthy();
    expect(api.called('POST', '/api/upi-settings')).toHaveLength(0);
  });

  it('saves the settings with "UPI Settings Updated", or says "Failed to update UPI settings"', async () => {
    const api = routes({
      'POST /api/upi-settings': (req) => ({
        body: { success: true, message: 'ok', settings: { ...SETTINGS, ...(req.body as object) } },
      }),
    });
    renderAdminPage(<PaymentsPage />);
    const holder = (await screen.findByLabelText('Account holder name')) as HTMLInputElement;
    await waitFor(() => expect(holder.value).toBe('OptionPilot Technologies'));
    fireEvent.change(holder, { target: { value: 'OptionPilot Pvt Ltd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save UPI Settings' }));
    expect(await screen.findByText('UPI Settings Updated')).toBeTruthy();
    expect(api.called('POST', '/api/upi-settings')[0]?.body).toEqual({
      upiId: 'optionpilot@okaxis',
      accountHolderName: 'OptionPilot Pvt Ltd',
    });
  });

  it('refuses a QR file that is not an image by content and previews a real one', async () => {
    routes();
    renderAdminPage(<PaymentsPage />);
    await screen.findByLabelText('UPI ID');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['hello'], 'qr.png', { type: 'image/png' })] } });
    expect((await screen.findAllByText(IMAGE_REFUSED)).length).toBeGreaterThan(0);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    fireEvent.change(input, { target: { files: [new File([png], 'qr.png')] } });
    const preview = (await screen.findByAltText('UPI QR code preview')) as HTMLImageElement;
    expect(preview.src.startsWith('data:image/png;base64,')).toBe(true);
  });

  it('offers Review only on pending requests and asks for a status first', async () => {
    const api = routes({
      'PATCH /api/admin/payment-requests/5': {
        body: { success: true, message: 'ok', request: { ...PENDING, status: 'approved' } },
      },
    });
    renderAdminPage(<PaymentsPage />);
    const table = await screen.findByRole('table', { name: 'Payment requests' });
    expect(within(table).getAllByRole('button', { name: 'Review' })).toHaveLength(1);
    fireEvent.click(within(table).getByRole('button', { name: 'Review' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Status Required')).toBeTruthy();
    expect(screen.getByText('Please select a status for the payment request')).toBeTruthy();
    expect(api.called('PATCH', '/api/admin/payment-requests/5')).toHaveLength(0);
  });

  it('approves with notes and shows "Payment Request Updated"', async () => {
    const api = routes({
      'PATCH /api/admin/payment-requests/5': {
        body: { success: true, message: 'ok', request: { ...PENDING, status: 'approved' } },
      },
    });
    renderAdminPage(<PaymentsPage />);
    const table = await screen.findByRole('table', { name: 'Payment requests' });
    fireEvent.click(within(table).getByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Approve' }));
    fireEvent.change(screen.getByLabelText(/^Admin notes/), { target: { value: 'Matched in statement' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Payment Request Updated')).toBeTruthy();
    expect(api.called('PATCH', '/api/admin/payment-requests/5')[0]?.body).toEqual({
      status: 'approved',
      adminNotes: 'Matched in statement',
    });
  });
});
