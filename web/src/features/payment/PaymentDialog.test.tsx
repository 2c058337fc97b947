import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { CheckoutQuoteDto, CreateOrderResponse } from '@optionpilot/server/contract';
import { browser } from '../../lib/browser';
import { showDeferredToast } from '../../lib/toast';
import { useSessionStore } from '../../stores/session';
import { useUiStore } from '../../stores/ui';
import { makeUser, YEARLY_PLAN } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { mockApi } from '../../test/http';
import { EMPTY_DETAILS, orderFields } from './CheckoutDetails';
import { PaymentDialog } from './PaymentDialog';

const ORDER: CreateOrderResponse = {
  id: 'order_test_abc',
  amount: 589_882,
  currency: 'INR',
  plan: {
    code: 'monthly',
    name: 'Monthly',
    months: 1,
    pricePaise: 499_900,
    gstPaise: 89_982,
    totalPaise: 589_882,
  },
  offer: null,
  testMode: true,
  keyId: null,
  checkoutUrl: null,
};

const CHECKOUT = {
  razorpay_payment_id: 'pay_test_1',
  razorpay_order_id: 'order_test_abc',
  razorpay_signature: 'a'.repeat(64),
};

const USER = makeUser({
  email: 'asha@example.in',
  subscriptionStatus: 'active',
  subscriptionStartDate: '2026-03-02T00:00:00.000Z',
  subscriptionEndDate: '2026-04-02T00:00:00.000Z',
  createdAt: '2026-03-01T00:00:00.000Z',
});

function openDialog() {
  window.localStorage.setItem('token', 'jwt');
  useSessionStore.setState({ token: 'jwt' });
  renderWithProviders(<PaymentDialog />);
  useUiStore.getState().openPaymentDialog();
}

describe('PaymentDialog', () => {
  let assign: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the plan, GST and total in rupees from paise', async () => {
    mockApi({});
    openDialog();
    expect(await screen.findByText('Complete Payment')).toBeTruthy();
    expect(screen.getByText('₹4,999.00')).toBeTruthy();
    expect(screen.getByText('₹899.82')).toBeTruthy();
    expect(screen.getByText('₹5,898.82')).toBeTruthy();
    expect(screen.getByText('Secure Payment')).toBeTruthy();
    expect(screen.getByText('SSL Encrypted')).toBeTruthy();
  });

  it('runs create-order → test-checkout → verify in test mode, then refreshes the user and reloads', async () => {
    const api = mockApi({
      'POST /api/payment/create-order': { body: ORDER },
      'POST /api/payment/test-checkout': { body: CHECKOUT },
      'POST /api/payment/verify': { body: { success: true, message: 'ok', subscription: {} } },
      'GET /api/auth/me': { body: USER },
    });
    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: /^Pay ₹/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    // The success toast waits for the reload (it would vanish with the old page); the new page shows it.
    expect(screen.queryByText('Payment Successful')).toBeNull();
    showDeferredToast();
    expect(await screen.findByText('Payment Successful')).toBeTruthy();
    expect(screen.getByText('Your subscription is now active!')).toBeTruthy();
    showDeferredToast();
    expect(screen.getAllByText('Payment Successful')).toHaveLength(1);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/plans',
      'POST /api/payment/create-order',
      'POST /api/payment/test-checkout',
      'POST /api/payment/verify',
      'GET /api/auth/me',
    ]);
    expect(api.called('POST', '/api/payment/test-checkout')[0]?.body).toEqual({ orderId: 'order_test_abc' });
    expect(api.called('POST', '/api/payment/verify')[0]?.body).toEqual(CHECKOUT);
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(useUiStore.getState().paymentDialogOpen).toBe(false);
    expect(useSessionStore.getState().user?.subscriptionStatus).toBe('active');
  });

  it('shows Processing... while busy', async () => {
    let release: () => void = () => undefined;
    mockApi({
      'POST /api/payment/create-order': () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 500, body: { error: 'internal', message: 'boom' } });
        }),
    });
    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: /^Pay ₹/ }));
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeTruthy();
    release();
    expect(await screen.findByText('boom')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Pay ₹/ })).toBeTruthy();
  });

  it('reports a verification failure as Payment Failed with the server message', async () => {
    mockApi({
      'POST /api/payment/create-order': { body: ORDER },
      'POST /api/payment/test-checkout': { body: CHECKOUT },
      'POST /api/payment/verify': {
        status: 400,
        body: { error: 'bad_signature', message: 'Payment signature does not match' },
      },
    });
    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: /^Pay ₹/ }));
    expect(await screen.findByText('Payment Failed')).toBeTruthy();
    expect(screen.getByText('Payment signature does not match')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    expect(useUiStore.getState().paymentDialogOpen).toBe(true);
  });

  it('reports an initiation failure as Error and clears processing', async () => {
    mockApi({ 'POST /api/payment/create-order': { status: 502, body: '' } });
    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: /^Pay ₹/ }));
    expect(await screen.findByText('Error')).toBeTruthy();
    expect(await screen.findByRole('button', { name: /^Pay ₹/ })).toBeTruthy();
  });

  it('opens Razorpay Checkout with the order when live keys are configured', async () => {
    const open = vi.fn();
    const options: unknown[] = [];
    class FakeRazorpay {
      constructor(o: unknown) {
        options.push(o);
      }
      open = open;
    }
    vi.stubGlobal('Razorpay', FakeRazorpay);
    mockApi({
      'POST /api/payment/create-order': {
        body: {
          ...ORDER,
          testMode: false,
          keyId: 'rzp_test_key',
          checkoutUrl: 'https://checkout.razorpay.com/v1/checkout.js',
        },
      },
    });
    openDialog();
    fireEvent.click(await screen.findByRole('button', { name: /^Pay ₹/ }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    expect(options[0]).toMatchObject({
      key: 'rzp_test_key',
      amount: 589_882,
      currency: 'INR',
      name: 'OptionPilot',
      description: 'Professional Trading Plan',
      order_id: 'order_test_abc',
      prefill: { name: '', email: '', contact: '' },
    });
    // Dismissing the provider's window clears the busy state.
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeTruthy();
    (options[0] as { modal: { ondismiss: () => void } }).modal.ondismiss();
    expect(await screen.findByRole('button', { name: /^Pay ₹/ })).toBeTruthy();
  });

  it('applies an offer code through the quote, shows the discount and sends the code with the order', async () => {
    const quote: CheckoutQuoteDto = {
      plan: { ...ORDER.plan, pricePaise: 449_910, gstPaise: 80_984, totalPaise: 530_894 },
      listPricePaise: 499_900,
      offer: { code: 'DIWALI10', name: 'Diwali', discountPercent: 10, discountPaise: 49_990 },
    };
    const api = mockApi({
      'POST /api/payment/quote': (req) =>
        (req.body as { offerCode?: string }).offerCode === 'DIWALI10'
          ? { body: quote }
          : {
              status: 400,
              body: {
                error: 'validation_failed',
                message: 'offerCode: no offer "NOPE"',
                field: 'offerCode',
              },
            },
      'POST /api/payment/create-order': { status: 503, body: { error: 'x', message: 'stop here' } },
    });
    openDialog();
    const input = await screen.findByLabelText('Offer code');
    fireEvent.change(input, { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('no offer "NOPE"')).toBeTruthy();
    expect(screen.getByText('₹5,898.82')).toBeTruthy();

    fireEvent.change(input, { target: { value: 'DIWALI10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Offer DIWALI10 (10% off)')).toBeTruthy();
    expect(screen.getByText('−₹499.90')).toBeTruthy();
    expect(screen.getByText('₹4,999.00')).toBeTruthy();
    expect(screen.getByText('₹809.84')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹5,308.94' }));
    await waitFor(() => expect(api.called('POST', '/api/payment/create-order')).toHaveLength(1));
    expect(api.called('POST', '/api/payment/create-order')[0]?.body).toEqual({
      amount: 5899,
      offerCode: 'DIWALI10',
    });
  });
});

describe('PaymentDialog with several plans on sale', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('offers the choice, shows the chosen plan and orders it', async () => {
    const api = mockApi({
      'GET /api/plans': { body: { plans: [ORDER.plan, YEARLY_PLAN] } },
      'POST /api/payment/create-order': { status: 503, body: { error: 'x', message: 'stop here' } },
    });
    openDialog();
    fireEvent.click(await screen.findByText('Yearly'));
    expect(await screen.findByRole('button', { name: 'Pay ₹58,998.82' })).toBeTruthy();
    expect(screen.getByText('₹8,999.82')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹58,998.82' }));
    await waitFor(() => expect(api.called('POST', '/api/payment/create-order')).toHaveLength(1));
    expect(api.called('POST', '/api/payment/create-order')[0]?.body).toEqual({
      amount: 5899,
      planCode: 'yearly',
    });
  });
});

describe('orderFields', () => {
  it('sends the buyer only with a state, and trims the optional B2B fields', () => {
    expect(orderFields(EMPTY_DETAILS)).toEqual({});
    expect(orderFields({ ...EMPTY_DETAILS, stateCode: '29', gstin: ' ', businessName: '' })).toEqual({
      buyer: { stateCode: '29' },
    });
    expect(
      orderFields({
        planCode: 'yearly',
        stateCode: '27',
        gstin: ' 27abcde1234f1z5 ',
        businessName: ' Acme ',
        offerCode: 'TEN',
      }),
    ).toEqual({
      planCode: 'yearly',
      offerCode: 'TEN',
      buyer: { stateCode: '27', gstin: '27abcde1234f1z5', name: 'Acme' },
    });
  });
});
