// Razorpay's API through the official `razorpay` SDK: orders, payments and refunds. The SDK fixes its host
// (https://api.razorpay.com) in its constructor; `RAZORPAY_API_ROOT` points it elsewhere (the fake in
// test/fakes/razorpay) through one seam below, the base URL of the SDK's HTTP client, covered by
// razorpayApi.test.ts so an SDK upgrade that moves it fails a test instead of silently calling the real API.
// Every failure becomes a RazorpayError: status 0 when Razorpay could not be reached.
import Razorpay from 'razorpay';

export const RAZORPAY_API_URL = 'https://api.razorpay.com';

/** The fields of Razorpay's order entity the server reads. */
export interface RazorpayOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string | null;
  status: string;
}

/** The fields of Razorpay's payment entity the server reads. */
export interface RazorpayPayment {
  id: string;
  order_id: string | null;
  /** integer paise */
  amount: number;
  currency: string;
  /** created, authorized, captured, refunded, failed */
  status: string;
  method: string | null;
  /** unix seconds */
  created_at: number;
}

export interface RazorpayRefund {
  id: string;
  payment_id: string;
  amount: number;
  status: string;
}

export interface CreateRazorpayOrder {
  /** integer paise */
  amount: number;
  currency: 'INR';
  /** ≤ 40 characters */
  receipt: string;
  notes?: Record<string, string>;
}

/** A refusal or failure from Razorpay; `status` 0 means the API could not be reached. */
export class RazorpayError extends Error {
  override readonly name = 'RazorpayError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export interface RazorpayApi {
  createOrder(order: CreateRazorpayOrder): Promise<RazorpayOrder>;
  fetchPayment(paymentId: string): Promise<RazorpayPayment>;
  /** every payment attempt of an order */
  orderPayments(orderId: string): Promise<RazorpayPayment[]>;
  /** refunds `amount` paise of a captured payment (the rest of it when omitted) */
  refund(paymentId: string, amount?: number, notes?: Record<string, string>): Promise<RazorpayRefund>;
}

/** The SDK's rejection (`{ statusCode, error: { code, description } }`) or a transport error, as a RazorpayError. */
export function toRazorpayError(err: unknown): RazorpayError {
  if (err instanceof RazorpayError) return err;
  const e = err as { statusCode?: unknown; error?: { code?: unknown; description?: unknown } } | null;
  if (typeof e?.statusCode === 'number') {
    const code = typeof e.error?.code === 'string' ? e.error.code : null;
    const description = typeof e.error?.description === 'string' ? e.error.description : null;
    return new RazorpayError(description ?? `Razorpay answered ${e.statusCode}`, e.statusCode, code);
  }
  // The SDK dereferences `err.response` of a network error and throws a TypeError: no answer from Razorpay.
  return new RazorpayError('Razorpay could not be reached', 0, null);
}

/** The seam: the base URL the SDK's HTTP client sends every request to. */
export function pointSdkAt(sdk: Razorpay, apiRoot: string, timeoutMs: number): void {
  const rq = (sdk as unknown as { api?: { rq?: { defaults?: { baseURL?: string; timeout?: number } } } }).api
    ?.rq;
  if (rq?.defaults === undefined) throw new Error('razorpay SDK: its HTTP client moved; update pointSdkAt');
  rq.defaults.baseURL = apiRoot.replace(/\/+$/, '');
  rq.defaults.timeout = timeoutMs;
}

export function createRazorpayApi(props: {
  keyId: string;
  keySecret: string;
  apiRoot?: string;
  timeoutMs?: number;
}): RazorpayApi {
  const sdk = new Razorpay({ key_id: props.keyId, key_secret: props.keySecret });
  pointSdkAt(sdk, props.apiRoot ?? RAZORPAY_API_URL, props.timeoutMs ?? 10_000);
  const call = async <T>(run: () => Promise<unknown>): Promise<T> => {
    try {
      return (await run()) as T;
    } catch (err) {
      throw toRazorpayError(err);
    }
  };
  return {
    createOrder: (order) => call(() => sdk.orders.create(order)),
    fetchPayment: (paymentId) => call(() => sdk.payments.fetch(paymentId)),
    orderPayments: async (orderId) =>
      (await call<{ items: RazorpayPayment[] }>(() => sdk.orders.fetchPayments(orderId))).items,
    refund: (paymentId, amount, notes) =>
      call(() =>
        sdk.payments.refund(paymentId, {
          ...(amount === undefined ? {} : { amount }),
          ...(notes === undefined ? {} : { notes }),
        }),
      ),
  };
}
