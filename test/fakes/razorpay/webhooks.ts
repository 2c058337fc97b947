// Razorpay webhook deliveries from the fake's stored payments, orders and refunds, POSTed to the server's
// `POST /api/payment/webhook` as Razorpay sends them: the event JSON, `X-Razorpay-Signature` =
// hex(hmac_sha256(body, webhook_secret)) over the exact body bytes and `X-Razorpay-Event-Id`, the same on every
// retry of one event. An event is built once and kept as its body text, so duplicates and retries are byte-identical
// and later changes to the fake's state do not leak into an event already built.
import { createHmac } from 'node:crypto';
import { entityId } from './ids';
import type { FakeOrder, FakePayment, FakeRefund } from './server';

export type FakeWebhookEventName = 'payment.captured' | 'order.paid' | 'payment.failed' | 'refund.processed';

/** The delivered JSON (parse `FakeWebhookEvent.body` to read it). */
export interface FakeWebhookBody {
  entity: 'event';
  account_id: string;
  event: FakeWebhookEventName;
  contains: string[];
  payload: {
    payment: { entity: FakePayment };
    order?: { entity: FakeOrder };
    refund?: { entity: FakeRefund };
  };
  /** unix seconds */
  created_at: number;
}

export interface FakeWebhookEvent {
  /** sent as X-Razorpay-Event-Id */
  readonly id: string;
  readonly name: FakeWebhookEventName;
  /** the exact body text that is signed and sent */
  readonly body: string;
}

export interface FakeWebhookDelivery {
  /** the event id the delivery carried */
  id: string;
  status: number;
  text: string;
}

export interface FakeWebhookSender {
  /** builds (does not send) an event from the stored payment, its order and, for refund.processed, its latest refund */
  event(name: FakeWebhookEventName, paymentId: string): FakeWebhookEvent;
  /** POSTs one delivery; `signatureSecret` signs with another secret, to play a forged delivery */
  deliver(event: FakeWebhookEvent, options?: { signatureSecret?: string }): Promise<FakeWebhookDelivery>;
  /** the same event (same id, same body) `times` times: one after another, or all at once with `concurrent` */
  duplicate(
    event: FakeWebhookEvent,
    times: number,
    options?: { concurrent?: boolean },
  ): Promise<FakeWebhookDelivery[]>;
  /** each event in the given order, each after the previous answer */
  deliverInOrder(events: FakeWebhookEvent[]): Promise<FakeWebhookDelivery[]>;
  /** delivers after `ms` (0 to MAX_WEBHOOK_DELAY_MS) and resolves with the answer */
  delayed(event: FakeWebhookEvent, ms: number): Promise<FakeWebhookDelivery>;
}

/** Longest `delayed` wait; keeps a mistyped delay from outliving the test. */
export const MAX_WEBHOOK_DELAY_MS = 30_000;
/** A delivery the target never answers fails instead of hanging the test. */
const DELIVERY_TIMEOUT_MS = 15_000;

/** The fake's state the events are built from (the same maps the API serves). */
export interface WebhookSource {
  accountId: string;
  orders: ReadonlyMap<string, FakeOrder>;
  payments: ReadonlyMap<string, FakePayment>;
  refunds: readonly FakeRefund[];
}

const CONTAINS: Record<FakeWebhookEventName, string[]> = {
  'payment.captured': ['payment'],
  'payment.failed': ['payment'],
  'order.paid': ['payment', 'order'],
  'refund.processed': ['refund', 'payment'],
};

function buildBody(source: WebhookSource, name: FakeWebhookEventName, paymentId: string): FakeWebhookBody {
  const stored = source.payments.get(paymentId);
  if (!stored) throw new Error(`fake razorpay: no payment ${paymentId}`);
  // payment.failed reports the attempt as failed whatever the fake stored (its checkout only captures).
  const payment: FakePayment =
    name === 'payment.failed' ? { ...stored, status: 'failed', captured: false } : { ...stored };
  const payload: FakeWebhookBody['payload'] = { payment: { entity: payment } };
  if (name === 'order.paid') {
    const order = source.orders.get(stored.order_id);
    if (!order) throw new Error(`fake razorpay: no order ${stored.order_id} for payment ${paymentId}`);
    payload.order = { entity: { ...order } };
  }
  if (name === 'refund.processed') {
    const refund = source.refunds.findLast((r) => r.payment_id === paymentId);
    if (!refund) throw new Error(`fake razorpay: no refund for payment ${paymentId}`);
    payload.refund = { entity: { ...refund } };
  }
  return {
    entity: 'event',
    account_id: source.accountId,
    event: name,
    contains: CONTAINS[name],
    payload,
    created_at: Math.floor(Date.now() / 1000),
  };
}

export function createWebhookSender(
  source: WebhookSource,
  target: { url: string; secret: string },
): FakeWebhookSender {
  const deliver = async (
    event: FakeWebhookEvent,
    options: { signatureSecret?: string } = {},
  ): Promise<FakeWebhookDelivery> => {
    const signature = createHmac('sha256', options.signatureSecret ?? target.secret)
      .update(event.body)
      .digest('hex');
    const response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Razorpay-Webhook/v1',
        'X-Razorpay-Signature': signature,
        'X-Razorpay-Event-Id': event.id,
      },
      body: event.body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    return { id: event.id, status: response.status, text: await response.text() };
  };

  return {
    event(name, paymentId) {
      return { id: entityId(), name, body: JSON.stringify(buildBody(source, name, paymentId)) };
    },
    deliver,
    async duplicate(event, times, options = {}) {
      if (!Number.isInteger(times) || times < 1)
        throw new RangeError('duplicate: times must be a positive integer');
      if (options.concurrent) return Promise.all(Array.from({ length: times }, () => deliver(event)));
      const results: FakeWebhookDelivery[] = [];
      for (let i = 0; i < times; i += 1) results.push(await deliver(event));
      return results;
    },
    async deliverInOrder(events) {
      const results: FakeWebhookDelivery[] = [];
      for (const event of events) results.push(await deliver(event));
      return results;
    },
    async delayed(event, ms) {
      if (!Number.isFinite(ms) || ms < 0 || ms > MAX_WEBHOOK_DELAY_MS)
        throw new RangeError(`delayed: ms must be between 0 and ${MAX_WEBHOOK_DELAY_MS}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return deliver(event);
    },
  };
}
