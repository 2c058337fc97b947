// A small fake of Razorpay's Orders, Payments and Refunds APIs on a real HTTP port, speaking the documented wire
// format: Basic auth with key_id:key_secret, JSON bodies, amounts in paise, Razorpay's
// `{ error: { code, description, field, … } }` refusals. It also plays the checkout: `checkout(orderId)` returns
// the three fields the browser would receive, signed hex(hmac_sha256(order_id + "|" + payment_id, key_secret)),
// and `GET /checkout.js` + `POST /checkout/pay` let a real browser do the same. `webhooks(target)` sends Razorpay's
// webhook deliveries. Used to test the server's own client end to end.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkoutScript } from './checkoutScript';
import { entityId } from './ids';
import { createWebhookSender, type FakeWebhookSender } from './webhooks';

export interface FakeOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: Record<string, string> | [];
  /** unix seconds */
  created_at: number;
}

export interface FakePayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  order_id: string;
  method: string;
  captured: boolean;
  amount_refunded: number;
  refund_status: null | 'partial' | 'full';
  /** unix seconds */
  created_at: number;
}

export interface FakeRefund {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  status: 'processed';
  notes: Record<string, string> | [];
  created_at: number;
}

export interface FakeCheckout {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

export interface FakeRazorpay {
  /** base URL to pass as the client's `baseUrl` (no trailing slash) */
  url: string;
  /** the fake Checkout script (`${url}/checkout.js`), for RAZORPAY_CHECKOUT_URL */
  checkoutUrl: string;
  keyId: string;
  keySecret: string;
  /** orders created so far, by id */
  orders: Map<string, FakeOrder>;
  /** payments made through `checkout` or the browser's Pay, by id (tests may alter one to play a mismatch) */
  payments: Map<string, FakePayment>;
  refunds: FakeRefund[];
  /** every request seen: method, path, authorization header present and valid */
  requests: Array<{ method: string; path: string; authorized: boolean }>;
  /** the next `count` order creations answer with this status (e.g. 500 or 503) */
  failNext(status: number, count?: number): void;
  /** completes a payment for `orderId` as Checkout would and returns the handler's three fields */
  checkout(orderId: string): FakeCheckout;
  /** a sender of webhook deliveries to `url` (the server's `/api/payment/webhook`), signed with `secret` */
  webhooks(target: { url: string; secret: string }): FakeWebhookSender;
  close(): Promise<void>;
}

// The browser calls /checkout/pay from the app's origin with a JSON body, so it preflights.
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'content-type',
};

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, status: number, description: string, field?: string): void {
  const code = status === 401 ? 'BAD_REQUEST_ERROR' : status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST_ERROR';
  send(res, status, {
    error: {
      code,
      description,
      source: 'NA',
      step: 'NA',
      reason: 'NA',
      metadata: {},
      ...(field ? { field } : {}),
    },
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Starts the fake on 127.0.0.1 and an ephemeral port. */
export async function startFakeRazorpay(
  /** `port`: a fixed one for a server configured before the fake starts (end-to-end runs); default ephemeral */
  options: { keyId?: string; keySecret?: string; port?: number } = {},
): Promise<FakeRazorpay> {
  const keyId = options.keyId ?? 'rzp_test_FakeKey1234';
  const keySecret = options.keySecret ?? 'fake_key_secret_0123456789';
  const expectedAuth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
  const orders = new Map<string, FakeOrder>();
  const payments = new Map<string, FakePayment>();
  const refunds: FakeRefund[] = [];
  const requests: FakeRazorpay['requests'] = [];
  const accountId = entityId('acc');
  let url = '';
  let failures: { status: number; count: number } | null = null;

  // The one way a payment is made, for `checkout()` and the browser's Pay: a captured payment on a paid order.
  const completePayment = (orderId: string): FakeCheckout | null => {
    const order = orders.get(orderId);
    if (!order) return null;
    const paymentId = entityId('pay');
    order.status = 'paid';
    order.attempts += 1;
    order.amount_paid = order.amount;
    order.amount_due = 0;
    payments.set(paymentId, {
      id: paymentId,
      entity: 'payment',
      amount: order.amount,
      currency: order.currency,
      status: 'captured',
      order_id: orderId,
      method: 'upi',
      captured: true,
      amount_refunded: 0,
      refund_status: null,
      created_at: Math.floor(Date.now() / 1000),
    });
    return {
      razorpay_payment_id: paymentId,
      razorpay_order_id: orderId,
      razorpay_signature: createHmac('sha256', keySecret).update(`${orderId}|${paymentId}`).digest('hex'),
    };
  };

  // Checkout's browser side: no Basic auth (the page holds only the key id); CORS for the app's origin.
  const handleCheckout = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (path === '/checkout.js') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
      // Pay must post to the origin the browser loaded the script from (127.0.0.1 vs localhost matters to CSP).
      const host = req.headers.host;
      const origin = host && /^[\w.-]+(:\d+)?$/.test(host) ? `http://${host}` : url;
      res.writeHead(200, {
        'content-type': 'application/javascript; charset=utf-8',
        'cache-control': 'no-store',
        'access-control-allow-origin': '*',
      });
      return res.end(req.method === 'HEAD' ? undefined : checkoutScript(origin));
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-max-age': '600' });
      return res.end();
    }
    res.setHeader('access-control-allow-origin', '*');
    if (req.method !== 'POST') return refuse(res, 405, 'Method not allowed');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return refuse(res, 400, 'The request body is not valid JSON');
    }
    if (typeof body.key !== 'string' || !sameText(body.key, keyId))
      return refuse(res, 400, 'The api key provided is invalid', 'key');
    const paid = typeof body.order_id === 'string' ? completePayment(body.order_id) : null;
    return paid ? send(res, 200, paid) : refuse(res, 400, 'The id provided does not exist', 'order_id');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const authorized = sameText(req.headers.authorization ?? '', expectedAuth);
    requests.push({ method: req.method ?? '', path, authorized });
    if (path === '/checkout.js' || path === '/checkout/pay') return handleCheckout(req, res, path);
    if (!authorized) return refuse(res, 401, 'Authentication failed');

    if (req.method === 'POST' && path === '/v1/orders') {
      if (failures && failures.count > 0) {
        failures.count -= 1;
        return refuse(
          res,
          failures.status,
          'The server encountered an error. The incident has been reported.',
        );
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      } catch {
        return refuse(res, 400, 'The request body is not valid JSON');
      }
      const { amount, currency = 'INR', receipt, notes } = body;
      if (typeof amount !== 'number' || !Number.isInteger(amount))
        return refuse(res, 400, 'The amount must be an integer.', 'amount');
      if (amount < 100) return refuse(res, 400, 'The amount must be atleast INR 1.00', 'amount');
      if (currency !== 'INR') return refuse(res, 400, 'The currency is not supported.', 'currency');
      if (receipt !== undefined && (typeof receipt !== 'string' || receipt.length > 40))
        return refuse(res, 400, 'The receipt may not be greater than 40 characters.', 'receipt');
      const order: FakeOrder = {
        id: entityId('order'),
        entity: 'order',
        amount,
        amount_paid: 0,
        amount_due: amount,
        currency,
        receipt: typeof receipt === 'string' ? receipt : null,
        offer_id: null,
        status: 'created',
        attempts: 0,
        notes: typeof notes === 'object' && notes !== null ? (notes as Record<string, string>) : [],
        created_at: Math.floor(Date.now() / 1000),
      };
      orders.set(order.id, order);
      return send(res, 200, order);
    }

    const paymentMatch = /^\/v1\/payments\/(\w+)$/.exec(path);
    if (req.method === 'GET' && paymentMatch) {
      const payment = payments.get(paymentMatch[1] ?? '');
      return payment ? send(res, 200, payment) : refuse(res, 400, 'The id provided does not exist');
    }
    const orderPaymentsMatch = /^\/v1\/orders\/(\w+)\/payments$/.exec(path);
    if (req.method === 'GET' && orderPaymentsMatch) {
      const orderId = orderPaymentsMatch[1] ?? '';
      if (!orders.has(orderId)) return refuse(res, 400, 'The id provided does not exist');
      const items = [...payments.values()].filter((p) => p.order_id === orderId);
      return send(res, 200, { entity: 'collection', count: items.length, items });
    }
    const refundMatch = /^\/v1\/payments\/(\w+)\/refund$/.exec(path);
    if (req.method === 'POST' && refundMatch) {
      const payment = payments.get(refundMatch[1] ?? '');
      if (!payment) return refuse(res, 400, 'The id provided does not exist');
      let body: Record<string, unknown> = {};
      try {
        const text = await readBody(req);
        body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        return refuse(res, 400, 'The request body is not valid JSON');
      }
      const left = payment.amount - payment.amount_refunded;
      const amount = body.amount === undefined ? left : body.amount;
      if (payment.status !== 'captured') return refuse(res, 400, 'The payment has not been captured');
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100 || amount > left)
        return refuse(res, 400, 'The refund amount provided is greater than amount captured', 'amount');
      payment.amount_refunded += amount;
      payment.refund_status = payment.amount_refunded === payment.amount ? 'full' : 'partial';
      if (payment.refund_status === 'full') payment.status = 'refunded';
      const refund: FakeRefund = {
        id: entityId('rfnd'),
        entity: 'refund',
        amount,
        currency: payment.currency,
        payment_id: payment.id,
        status: 'processed',
        notes:
          typeof body.notes === 'object' && body.notes !== null ? (body.notes as Record<string, string>) : [],
        created_at: Math.floor(Date.now() / 1000),
      };
      refunds.push(refund);
      return send(res, 200, refund);
    }

    const fetchMatch = /^\/v1\/orders\/([\w]+)$/.exec(path);
    if (req.method === 'GET' && fetchMatch) {
      const order = orders.get(fetchMatch[1] ?? '');
      return order ? send(res, 200, order) : refuse(res, 400, 'The id provided does not exist');
    }
    return refuse(res, 404, 'The requested URL was not found on the server.');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      refuse(res, 500, err instanceof Error ? err.message : 'fake failure');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    checkoutUrl: `${url}/checkout.js`,
    keyId,
    keySecret,
    orders,
    payments,
    refunds,
    requests,
    failNext(status, count = 1) {
      failures = { status, count };
    },
    checkout(orderId) {
      const paid = completePayment(orderId);
      if (!paid) throw new Error(`fake razorpay: no order ${orderId}`);
      return paid;
    },
    webhooks: (target) => createWebhookSender({ accountId, orders, payments, refunds }, target),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
