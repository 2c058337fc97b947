// A small typed client for the one Razorpay call the server makes: `POST /v1/orders` with Basic auth.
// Why not the `razorpay` npm SDK: its constructor hard-codes https://api.razorpay.com (no host option), so the
// client code could not be exercised end to end against the fake in test/fakes/razorpay without patching the
// SDK's internals. This client speaks the same documented wire format and takes the base URL as a parameter.

export const RAZORPAY_API_URL = 'https://api.razorpay.com';

/** The fields of Razorpay's order entity that the server reads. */
export interface RazorpayOrder {
  id: string;
  entity: 'order';
  amount: number;
  currency: string;
  receipt: string | null;
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

export interface RazorpayClient {
  createOrder(order: CreateRazorpayOrder): Promise<RazorpayOrder>;
}

function isRazorpayOrder(value: unknown): value is RazorpayOrder {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.amount === 'number' && typeof v.currency === 'string';
}

function errorOf(body: unknown): { code: string | null; description: string | null } {
  const error = (body as { error?: { code?: unknown; description?: unknown } } | null)?.error;
  return {
    code: typeof error?.code === 'string' ? error.code : null,
    description: typeof error?.description === 'string' ? error.description : null,
  };
}

/** A client over `keyId`/`keySecret`; `baseUrl` defaults to Razorpay's API host. */
export function createRazorpayClient(props: {
  keyId: string;
  keySecret: string;
  baseUrl?: string;
  timeoutMs?: number;
}): RazorpayClient {
  const baseUrl = (props.baseUrl ?? RAZORPAY_API_URL).replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${props.keyId}:${props.keySecret}`).toString('base64')}`;
  return {
    async createOrder(order) {
      let res: Response;
      try {
        res = await fetch(`${baseUrl}/v1/orders`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(order),
          signal: AbortSignal.timeout(props.timeoutMs ?? 10_000),
        });
      } catch (err) {
        throw new RazorpayError(
          `Razorpay could not be reached: ${err instanceof Error ? err.message : String(err)}`,
          0,
          null,
        );
      }
      const text = await res.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // a proxy's HTML error page: reported below by status
      }
      if (!res.ok) {
        const { code, description } = errorOf(body);
        throw new RazorpayError(description ?? `Razorpay answered ${res.status}`, res.status, code);
      }
      if (!isRazorpayOrder(body))
        throw new RazorpayError('Razorpay returned an unexpected order body', res.status, null);
      return body;
    },
  };
}
