import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminOfferDto, AdminPlanDto, PaymentGatewayStatusDto } from '@optionpilot/server/contract';
import { mockApi } from '../../../test/http';
import { pageOf, renderAdminPage } from '../test/renderAdmin';
import { SubscriptionsPage } from './SubscriptionsPage';

const plan = (
  code: string,
  name: string,
  months: number,
  pricePaise: number,
  active: boolean,
): AdminPlanDto => ({
  id: months,
  code,
  name,
  months,
  pricePaise,
  gstPaise: Math.round(pricePaise * 0.18),
  totalPaise: pricePaise + Math.round(pricePaise * 0.18),
  gstRateBp: 1800,
  active,
  sortOrder: months,
});
const PLANS = [plan('monthly', 'Monthly', 1, 499_900, true), plan('yearly', 'Yearly', 12, 4_999_900, false)];
const OFFER: AdminOfferDto = {
  id: 1,
  name: 'Diwali',
  code: 'DIWALI10',
  discountPercent: 10,
  discountAmountPaise: null,
  planCode: null,
  validFrom: null,
  validTill: '2026-12-01T18:30:00.000Z',
  maxUsers: 50,
  usedCount: 12,
  active: true,
  createdAt: '2026-11-01T00:00:00.000Z',
};
const GATEWAY: PaymentGatewayStatusDto = {
  provider: 'razorpay',
  mode: 'test',
  keyIdMasked: null,
  webhookSecretConfigured: false,
  lastWebhookAt: null,
  lastWebhookType: null,
  webhooksLast24h: 0,
};

describe('/admin/subscriptions', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists plans, offers with used count, and the gateway in test mode; puts a plan on sale', async () => {
    const api = mockApi({
      'GET /api/admin/plans': { body: PLANS },
      'GET /api/admin/offers': { body: [OFFER] },
      'GET /api/admin/payment-gateway': { body: GATEWAY },
      'PATCH /api/admin/plans/yearly': { body: { success: true, message: 'ok' } },
    });
    renderAdminPage(<SubscriptionsPage />);
    const plans = await screen.findByRole('table', { name: 'Plans table' });
    expect(within(plans).getByText('₹49,999.00')).toBeTruthy();
    expect(
      within(await screen.findByRole('table', { name: 'Offers table' })).getByText('12 / 50'),
    ).toBeTruthy();
    expect(await screen.findByText('Test mode')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Yearly active' }));
    await waitFor(() =>
      expect(api.called('PATCH', '/api/admin/plans/yearly')[0]?.body).toEqual({ active: true }),
    );
  });

  it('adds an offer: refuses one without a name or code, sends the code, a fixed amount and IST days', async () => {
    const api = mockApi({
      'GET /api/admin/plans': { body: PLANS },
      'GET /api/admin/offers': { body: [] },
      'GET /api/admin/payment-gateway': { body: GATEWAY },
      'POST /api/admin/offers': { status: 201, body: { success: true, message: 'ok', offer: OFFER } },
    });
    renderAdminPage(<SubscriptionsPage />);
    const form = await screen.findByRole('form', { name: 'New offer' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add offer' }));
    expect(await screen.findByText('name is required')).toBeTruthy();
    expect(screen.getByText('code must be 3 to 40 letters, digits, - or _')).toBeTruthy();
    expect(api.called('POST', '/api/admin/offers')).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('Offer name'), { target: { value: 'Launch' } });
    fireEvent.change(within(form).getByLabelText(/^Code/), { target: { value: 'launch500' } });
    fireEvent.click(within(form).getByText('Fixed amount'));
    fireEvent.change(within(form).getByLabelText(/^Discount \(₹\)/), { target: { value: '500' } });
    fireEvent.change(within(form).getByLabelText('Valid from (IST)'), { target: { value: '2026-11-01' } });
    fireEvent.change(within(form).getByLabelText(/^Valid until \(IST\)/), {
      target: { value: '2026-11-30' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add offer' }));
    await waitFor(() => expect(api.called('POST', '/api/admin/offers')).toHaveLength(1));
    expect(api.called('POST', '/api/admin/offers')[0]?.body).toEqual({
      name: 'Launch',
      code: 'LAUNCH500',
      discountAmountPaise: 50_000,
      planCode: null,
      // 1 Nov 00:00 IST, and the first instant after 30 Nov in IST (the whole last day is valid).
      validFrom: '2026-10-31T18:30:00.000Z',
      validTill: '2026-11-30T18:30:00.000Z',
      maxUsers: 50,
      active: true,
    });
  });

  it('edits an offer (only what changed is sent) and lists its redemptions', async () => {
    const api = mockApi({
      'GET /api/admin/plans': { body: PLANS },
      'GET /api/admin/offers': { body: [OFFER] },
      'GET /api/admin/payment-gateway': { body: GATEWAY },
      'GET /api/admin/offers/1/redemptions?pageSize=100': {
        body: {
          ...pageOf([
            {
              paymentId: 9,
              user: { id: 4, firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' },
              paidAt: '2026-11-20T06:00:00.000Z',
              amountPaise: 530_894,
              discountPaise: 49_990,
              invoiceNumber: 'OP/26-27/00009',
            },
          ]),
          offer: OFFER,
        },
      },
      'PATCH /api/admin/offers/1': { body: { success: true, message: 'ok', offer: OFFER } },
    });
    renderAdminPage(<SubscriptionsPage />);
    const table = await screen.findByRole('table', { name: 'Offers table' });
    // validTill is the first instant after the offer: the last IST day shown is 1 Dec.
    expect(within(table).getByText('Now – 01 Dec 2026')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Edit DIWALI10' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit offer DIWALI10' });
    const redemptions = await within(dialog).findByRole('table', { name: 'Redemptions' });
    expect(within(redemptions).getByText('OP/26-27/00009')).toBeTruthy();
    expect(within(redemptions).getByText('₹499.90')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Max redemptions/), { target: { value: '80' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save offer' }));
    await waitFor(() => expect(api.called('PATCH', '/api/admin/offers/1')).toHaveLength(1));
    expect(api.called('PATCH', '/api/admin/offers/1')[0]?.body).toEqual({ maxUsers: 80 });
  });
});
