// Where checkout orders come from and which secret signs their checkout results. Without Razorpay keys the product
// runs in payment test mode: orders are local (`order_test_…`) and signed with a server-generated test secret kept
// in DATA_DIR/secrets (never sent to the browser), so `verify` runs exactly the code a real payment runs.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { loadOrCreateKey } from '../crypto';
import { createRazorpayClient, type RazorpayClient } from './razorpayClient';

export const PAYMENT_TEST_KEY_FILE = 'payment-test.key';

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
  /** creates the provider's order and returns its id */
  createOrder(order: GatewayOrder): Promise<{ id: string }>;
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
    signingSecret: secret,
    async createOrder() {
      return { id: randomProviderId('order_test') };
    },
  };
}

/** Live mode: orders through Razorpay's Orders API; checkout signatures use the key secret. */
export function createRazorpayGateway(props: {
  keyId: string;
  keySecret: string;
  client?: RazorpayClient;
  baseUrl?: string;
}): PaymentGateway {
  const client =
    props.client ??
    createRazorpayClient({
      keyId: props.keyId,
      keySecret: props.keySecret,
      ...(props.baseUrl ? { baseUrl: props.baseUrl } : {}),
    });
  return {
    provider: 'razorpay',
    testMode: false,
    keyId: props.keyId,
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
  };
}

/** The gateway the configuration asks for: Razorpay when both keys are set, else test mode. */
export function createPaymentGateway(
  config: Pick<Config, 'razorpay' | 'dataDir'>,
  options: { razorpayBaseUrl?: string } = {},
): PaymentGateway {
  if (config.razorpay) {
    return createRazorpayGateway({
      keyId: config.razorpay.keyId,
      keySecret: config.razorpay.keySecret,
      ...(options.razorpayBaseUrl ? { baseUrl: options.razorpayBaseUrl } : {}),
    });
  }
  const secret = loadOrCreateKey(config.dataDir, undefined, {
    fileName: PAYMENT_TEST_KEY_FILE,
    envName: 'payment test secret',
  }).toString('base64');
  return createTestGateway(secret);
}
