// "Complete Payment" (spec §2/§4). The server decides the amount from the plan and the offer code (decisions.md:
// integer paise, the browser's figure is ignored); the buyer's state goes on the GST invoice. In payment test mode the server signs a fake checkout result with its test secret,
// so the exact verification path of a real Razorpay payment runs without the provider.
import { useState } from 'react';
import { Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { IconLock, IconShieldCheck } from '@tabler/icons-react';
import type {
  AppliedOfferDto,
  CheckoutResult,
  CreateOrderRequest,
  CreateOrderResponse,
  PlanDto,
  VerifyPaymentResponse,
} from '@optionpilot/server/contract';
import { api, ApiError, errorMessage } from '../../api/client';
import { browser } from '../../lib/browser';
import { formatInr } from '../../lib/format';
import { toastError, toastSuccessAfterReload } from '../../lib/toast';
import { useSessionStore } from '../../stores/session';
import { selectPaymentDialogOpen, useUiStore } from '../../stores/ui';
import { CheckoutDetails, EMPTY_DETAILS, orderFields, type CheckoutDetailsValue } from './CheckoutDetails';
import { SPEC_MONTHLY_PLAN, usePlansOnSale } from './plans';
import { loadRazorpayCheckout } from './razorpayCheckout';
import { UpiPaymentPanel } from './UpiPaymentPanel';

/** Spec §7 sends `amount: 5899`; kept for wire compatibility, the server ignores it and charges the plan. */
const SPEC_ORDER_BODY = { amount: 5899 };

/** Mantine blue 6, the checkout's theme colour (spec §7 "a blue theme colour"). */
const CHECKOUT_THEME_COLOR = '#228be6';

export const paymentApi = {
  createOrder: (fields: Omit<CreateOrderRequest, 'amount'> = {}) =>
    api.post<CreateOrderResponse>('/api/payment/create-order', { ...SPEC_ORDER_BODY, ...fields }),
  testCheckout: (orderId: string) => api.post<CheckoutResult>('/api/payment/test-checkout', { orderId }),
  verify: (result: CheckoutResult) => api.post<VerifyPaymentResponse>('/api/payment/verify', result),
};

function Line({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between">
      <Text fw={strong ? 700 : 400} c={strong ? undefined : 'dimmed'}>
        {label}
      </Text>
      <Text fw={strong ? 700 : 500} ff="monospace">
        {value}
      </Text>
    </Group>
  );
}

export function PaymentDialog() {
  const opened = useUiStore(selectPaymentDialogOpen);
  const [processing, setProcessing] = useState(false);
  const [method, setMethod] = useState<'card' | 'upi'>('card');
  const plans = usePlansOnSale(opened);
  const [details, setDetails] = useState<CheckoutDetailsValue>(EMPTY_DETAILS);
  // The server's last pricing (quote or order): it names its plan, so a later change of plan drops it.
  const [priced, setPriced] = useState<{ plan: PlanDto; offer: AppliedOfferDto | null } | null>(null);
  const chosen = plans.find((p) => p.code === details.planCode) ?? plans[0] ?? SPEC_MONTHLY_PLAN;
  const { plan, offer } = priced?.plan.code === chosen.code ? priced : { plan: chosen, offer: null };
  const changeDetails = (next: CheckoutDetailsValue) => {
    if (next.planCode !== details.planCode) setPriced(null);
    setDetails(next);
  };
  const [fieldError, setFieldError] = useState<{ field: string; message: string } | null>(null);

  const close = () => {
    if (processing) return;
    setMethod('card');
    useUiStore.getState().closePaymentDialog();
  };

  const verify = async (result: CheckoutResult) => {
    try {
      await paymentApi.verify(result);
      // Shown after the reload below, so the user actually sees it.
      toastSuccessAfterReload('Payment Successful', 'Your subscription is now active!');
      try {
        await useSessionStore.getState().refreshMe();
      } catch {
        // The reload below fetches the user again; a failed refresh must not hide a successful payment.
      }
      useUiStore.getState().closePaymentDialog();
      // Spec §4: the page reloads so every screen starts from the new subscription.
      browser.assign(window.location.pathname + window.location.search);
    } catch (err) {
      toastError('Payment Failed', errorMessage(err, 'Payment verification failed'));
    } finally {
      setProcessing(false);
    }
  };

  const pay = async () => {
    setProcessing(true);
    setFieldError(null);
    let order: CreateOrderResponse;
    try {
      order = await paymentApi.createOrder(orderFields(details));
      setPriced({ plan: order.plan, offer: order.offer });
    } catch (err) {
      if (err instanceof ApiError && err.field !== null) {
        setFieldError({ field: err.field, message: err.message });
      }
      toastError('Error', errorMessage(err, 'Failed to initiate payment'));
      setProcessing(false);
      return;
    }

    if (order.testMode) {
      let result: CheckoutResult;
      try {
        result = await paymentApi.testCheckout(order.id);
      } catch (err) {
        toastError('Error', errorMessage(err, 'Failed to initiate payment'));
        setProcessing(false);
        return;
      }
      await verify(result);
      return;
    }

    try {
      if (!order.keyId || !order.checkoutUrl)
        throw new Error('Online payment is not configured. Please contact support.');
      const Razorpay = await loadRazorpayCheckout(order.checkoutUrl);
      const checkout = new Razorpay({
        key: order.keyId,
        amount: order.amount,
        currency: 'INR',
        name: 'OptionPilot',
        description: 'Professional Trading Plan',
        order_id: order.id,
        prefill: { name: '', email: '', contact: '' },
        theme: { color: CHECKOUT_THEME_COLOR },
        handler: (result) => void verify(result),
        // Closing the provider's window is not an error: just let the user try again.
        modal: { ondismiss: () => setProcessing(false) },
      });
      checkout.open();
    } catch (err) {
      toastError('Error', errorMessage(err, 'Failed to initiate payment'));
      setProcessing(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Complete Payment"
      centered
      closeOnClickOutside={!processing}
    >
      {method === 'upi' ? (
        <UpiPaymentPanel onBack={() => setMethod('card')} onSubmitted={close} />
      ) : (
        <Stack gap="sm">
          <CheckoutDetails
            value={details}
            plans={plans}
            onChange={changeDetails}
            onQuote={(quote) => setPriced({ plan: quote.plan, offer: quote.offer })}
            disabled={processing}
            fieldError={fieldError}
          />
          <Divider />
          {offer === null ? (
            <Line label={plan.name} value={formatInr(plan.pricePaise)} />
          ) : (
            <>
              <Line label={plan.name} value={formatInr(plan.pricePaise + offer.discountPaise)} />
              <Line
                label={
                  offer.discountPercent === null
                    ? `Offer ${offer.code}`
                    : `Offer ${offer.code} (${offer.discountPercent}% off)`
                }
                value={`−${formatInr(offer.discountPaise)}`}
              />
            </>
          )}
          <Line label="GST (18%)" value={formatInr(plan.gstPaise)} />
          <Divider />
          <Line label="Total" value={formatInr(plan.totalPaise)} strong />
          <Group gap="lg" justify="center" c="dimmed">
            <Group gap={4}>
              <IconShieldCheck size={16} />
              <Text size="sm">Secure Payment</Text>
            </Group>
            <Group gap={4}>
              <IconLock size={16} />
              <Text size="sm">SSL Encrypted</Text>
            </Group>
          </Group>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={processing}>
              Cancel
            </Button>
            <Button variant="light" onClick={() => setMethod('upi')} disabled={processing}>
              Pay by UPI
            </Button>
            <Button onClick={() => void pay()} disabled={processing}>
              {processing ? 'Processing...' : `Pay ${formatInr(plan.totalPaise)}`}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
