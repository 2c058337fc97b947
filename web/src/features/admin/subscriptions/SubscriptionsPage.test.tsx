import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminOfferDto, AdminPlanDto, PaymentGatewayStatusDto } from '@optionpilot/server/contract';
import { mockApi } from '../../../test/http';
import { renderAdminPage } from '../test/renderAdmin';
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
  code: null,
  discountPercent: 10,
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

  it('adds an offer with the spec defaults and refuses one without a name', async () => {
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
    fireEvent.change(within(form).getByLabelText('Offer name'), { target: { value: 'Launch' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add offer' }));
    await waitFor(() => expect(api.called('POST', '/api/admin/offers')).toHaveLength(1));
    expect(api.called('POST', '/api/admin/offers')[0]?.body).toMatchObject({
      name: 'Launch',
      discountPercent: 10,
      maxUsers: 50,
    });
  });
});
