// Where checkout orders come from and which secret signs their checkout results. Without Razorpay keys the product
// runs in payment test mode: orders are local (`order_test_…`) and signed with a server-generated test secret kept
// in DATA_DIR/secrets (never sent to the browser), so `verify` runs exactly the code a real payment runs.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { loadOrCreateKey } from '../crypto';
import {
  createRazorpayApi,
  type RazorpayApi,
  type RazorpayPayment,
  type RazorpayRefund,
} from './razorpayApi';

export const PAYMENT_TEST_KEY_FILE = 'payment-test.key';
export const RAZORPAY_CHECKOUT_URL = 'https://checkout.razorpay.com/v1/checkout.js';

export interface GatewayOrder {
  /** integer paise */
  amountPaise: number;
  /** ≤ 40 characters, unique */
  receipt: string;
  notes?: Record<string, string>;
}

export interface PaymentGateway {
  readonly provider: 'test' | 'razorpay';
  /** true in payment test mode (no Razorpay keys) */
  readonly testMode: boolean;
  /** the public key id the checkout needs; null in test mode */
  readonly keyId: string | null;
  /** the checkout script the browser loads; null in test mode */
  readonly checkoutUrl: string | null;
  /** creates the provider's order and returns its id */
  createOrder(order: GatewayOrder): Promise<{ id: string }>;
  /**
   * The provider's record of a payment, asked before a subscription is activated (live mode); null in test mode,
   * where the server's own test signature is the only proof there is.
   */
  fetchPayment(paymentId: string): Promise<RazorpayPayment | null>;
  /** every payment attempt of a provider order (reconciliation of orders left unpaid); [] in test mode */
  orderPayments(providerOrderId: string): Promise<RazorpayPayment[]>;
  /**
   * Returns `amountPaise` of a captured provider payment to the payer (Razorpay's refund API). Test mode has no
   * provider to ask and refuses; callers record refunds of test and manual payments themselves.
   */
  refund(paymentId: string, amountPaise: number, notes: Record<string, string>): Promise<RazorpayRefund>;
  /** the secret checkout signatures are made with; stays on the server */
  readonly signingSecret: string;
}

/** A random id in Razorpay's style (`<prefix>_` + 14 alphanumerics). */
export function randomProviderId(prefix: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(14);
  let id = '';
  for (const b of bytes) id += alphabet[b % alphabet.length];
  return `${prefix}_${id}`;
}

/** Test mode: local orders, signatures with `secret`. */
export function createTestGateway(secret: string): PaymentGateway {
  return {
    provider: 'test',
    testMode: true,
    keyId: null,
    checkoutUrl: null,
    signingSecret: secret,
    async createOrder() {
      return { id: randomProviderId('order_test') };
    },
    fetchPayment: () => Promise.resolve(null),
    orderPayments: () => Promise.resolve([]),
    refund: () => Promise.reject(new Error('payment test mode has no provider to refund through')),
  };
}

/** Live mode: Razorpay's API through the official SDK; checkout signatures use the key secret. */
export function createRazorpayGateway(props: {
  keyId: string;
  keySecret: string;
  client?: RazorpayApi;
  /** RAZORPAY_API_ROOT; default Razorpay's API host */
  apiRoot?: string;
  /** RAZORPAY_CHECKOUT_URL; default Razorpay's checkout.js */
  checkoutUrl?: string;
}): PaymentGateway {
  const client =
    props.client ??
    createRazorpayApi({
      keyId: props.keyId,
      keySecret: props.keySecret,
      ...(props.apiRoot ? { apiRoot: props.apiRoot } : {}),
    });
  return {
    provider: 'razorpay',
    testMode: false,
    keyId: props.keyId,
    checkoutUrl: props.checkoutUrl ?? RAZORPAY_CHECKOUT_URL,
    signingSecret: props.keySecret,
    async createOrder(order) {
      const created = await client.createOrder({
        amount: order.amountPaise,
        currency: 'INR',
        receipt: order.receipt,
        ...(order.notes ? { notes: order.notes } : {}),
      });
      return { id: created.id };
    },
    fetchPayment: (paymentId) => client.fetchPayment(paymentId),
    orderPayments: (providerOrderId) => client.orderPayments(providerOrderId),
    refund: (paymentId, amountPaise, notes) => client.refund(paymentId, amountPaise, notes),
  };
}

/** The gateway the configuration asks for: Razorpay when both keys are set, else test mode. */
export function createPaymentGateway(config: Pick<Config, 'razorpay' | 'dataDir'>): PaymentGateway {
  if (config.razorpay) {
    return createRazorpayGateway({
      keyId: config.razorpay.keyId,
      keySecret: config.razorpay.keySecret,
      apiRoot: config.razorpay.apiRoot,
      checkoutUrl: config.razorpay.checkoutUrl,
    });
  }
  const secret = loadOrCreateKey(config.dataDir, undefined, {
    fileName: PAYMENT_TEST_KEY_FILE,
    envName: 'payment test secret',
  }).toString('base64');
  return createTestGateway(secret);
}
