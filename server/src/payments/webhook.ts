// Razorpay webhooks (`POST /api/payment/webhook`). The signature is checked over the raw body before anything is
// read; each delivery is recorded in `webhook_events` in the transaction that acts on it, so a retried or
// duplicated event id is acknowledged and ignored. A captured payment whose order the browser never verified
// (window closed) activates here, through the same `recordVerifiedPayment` as checkout; when the browser got
// there first (or a second event names the same payment) nothing is activated twice. `refund.processed` settles a
// refund our server left pending (see refunds.ts).
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import {
  findPaymentByProviderId,
  findPaymentOrderByProviderId,
  isUniqueViolation,
  markWebhookEventProcessed,
  recordWebhookEvent,
  settlePaymentOrder,
  type Db,
  type LogRow,
} from '../db';
import { announceAudit } from '../services/audit';
import { recordVerifiedPayment } from './record';
import { settleRefundFromWebhook } from './refunds';
import { isValidWebhookSignature } from './signature';

type WebhookDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'config'>;

const paymentEntity = z.object({
  id: z.string().min(1).max(64),
  order_id: z.string().min(1).max(64).nullable().optional(),
  amount: z.number().int().positive(),
  currency: z.string(),
  status: z.string(),
});

const refundEntity = z.object({
  id: z.string().min(1).max(64),
  payment_id: z.string().min(1).max(64),
  amount: z.number().int().positive(),
  status: z.string(),
  // Razorpay sends `[]` for no notes.
  notes: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
});

const webhookBody = z.object({
  event: z.string().min(1).max(64),
  payload: z
    .object({
      payment: z.object({ entity: paymentEntity }).optional(),
      refund: z.object({ entity: refundEntity }).optional(),
    })
    .passthrough()
    .default({}),
});

export interface WebhookOutcome {
  duplicate: boolean;
  /** the user whose subscription this delivery activated, if any */
  activatedUserId: number | null;
  /** why a delivery was acknowledged without effect */
  note: string | null;
}

export interface Acted {
  activatedUserId: number | null;
  note: string | null;
  log: LogRow | null;
}

/**
 * A captured payment (payment.captured or order.paid, or found by the reconciliation job): activates its order
 * once, through the one path of every verified payment.
 */
export async function settleCaptured(props: {
  trx: Db;
  deps: WebhookDeps;
  payment: z.output<typeof paymentEntity>;
  source?: 'webhook' | 'reconciliation';
}): Promise<Acted> {
  const { trx, deps, payment } = props;
  if (payment.status !== 'captured')
    return { activatedUserId: null, note: `payment ${payment.status}`, log: null };
  if (!payment.order_id) return { activatedUserId: null, note: 'payment has no order', log: null };
  const order = await findPaymentOrderByProviderId(trx, payment.order_id);
  if (!order) return { activatedUserId: null, note: 'unknown order', log: null };
  if (await findPaymentByProviderId(trx, payment.id))
    return { activatedUserId: null, note: 'payment already recorded', log: null };
  if (payment.amount !== order.amount_paise || payment.currency !== order.currency) {
    deps.logger.error(
      { orderId: order.provider_order_id, amount: payment.amount, currency: payment.currency },
      'webhook payment does not match its order',
    );
    return { activatedUserId: null, note: 'amount or currency differs from the order', log: null };
  }
  const now = deps.clock.now();
  if (!(await settlePaymentOrder(trx, order.id, 'paid', now)))
    return { activatedUserId: null, note: 'order already settled', log: null };
  const { log } = await recordVerifiedPayment({
    trx,
    deps,
    userId: order.user_id,
    method: 'razorpay',
    amountPaise: order.amount_paise,
    planId: order.plan_id,
    offerId: order.offer_id,
    providerPaymentId: payment.id,
    paymentOrderId: order.id,
    paidAt: now,
    actor: { userId: null, source: props.source ?? 'webhook' },
    buyer: { name: order.buyer_name, stateCode: order.buyer_state_code, gstin: order.buyer_gstin },
    taxablePaise: order.base_paise - order.discount_paise,
    discountPaise: order.discount_paise,
  });
  return { activatedUserId: order.user_id, note: null, log };
}

/**
 * Handles one webhook delivery. Throws a 400 AppError for a bad signature (nothing is recorded) or an unreadable
 * body; otherwise the delivery is acknowledged, whether it acted, was a duplicate or was of no interest.
 */
export async function handleRazorpayWebhook(props: {
  deps: WebhookDeps;
  secret: string;
  rawBody: string;
  signature: string | undefined;
  /** X-Razorpay-Event-Id, checked by the route (present, a short plain id) */
  eventId: string;
  onUserChanged: (userId: number) => Promise<void>;
}): Promise<WebhookOutcome> {
  const { deps } = props;
  if (
    !isValidWebhookSignature({ rawBody: props.rawBody, signature: props.signature, secret: props.secret })
  ) {
    throw new AppError('validation_failed', {
      message: 'X-Razorpay-Signature: the webhook signature does not match.',
      field: 'X-Razorpay-Signature',
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(props.rawBody);
  } catch {
    throw new AppError('validation_failed', { message: 'body: not JSON.', field: 'body' });
  }
  const parsed = webhookBody.safeParse(json);
  if (!parsed.success)
    throw new AppError('validation_failed', {
      message: 'body: not a Razorpay webhook event.',
      field: 'body',
    });
  const body = parsed.data;
  // Razorpay sends a unique X-Razorpay-Event-Id per event (the same on retries).
  const eventId = props.eventId;

  const run = () =>
    deps.db.knex.transaction(async (trx): Promise<Acted & { duplicate: boolean }> => {
      const now = deps.clock.now();
      const { event, duplicate } = await recordWebhookEvent(
        trx,
        {
          provider: 'razorpay',
          event_id: eventId,
          event_type: body.event,
          payload: props.rawBody,
        },
        now,
      );
      if (duplicate) return { duplicate: true, activatedUserId: null, note: 'duplicate delivery', log: null };
      let acted: Acted = { activatedUserId: null, note: `event ${body.event} not acted on`, log: null };
      const payment = body.payload.payment?.entity;
      if ((body.event === 'payment.captured' || body.event === 'order.paid') && payment)
        acted = await settleCaptured({ trx, deps, payment });
      const refund = body.payload.refund?.entity;
      if (body.event === 'refund.processed' && refund) {
        const note = Array.isArray(refund.notes) ? undefined : refund.notes?.refund_id;
        const settled = await settleRefundFromWebhook({
          trx,
          deps,
          providerRefundId: refund.id,
          refundIdNote: typeof note === 'string' ? note : undefined,
        });
        acted = { activatedUserId: null, note: settled.note, log: settled.log };
      }
      // payment.failed: the order stays `created` (Razorpay lets the buyer retry on it); the event is kept.
      await markWebhookEventProcessed(trx, event.id, acted.note, now);
      return { ...acted, duplicate: false };
    });

  let outcome: Acted & { duplicate: boolean };
  try {
    outcome = await run();
  } catch (err) {
    // The browser's verification (or a parallel delivery) recorded the payment first: the retry sees it.
    if (!isUniqueViolation(err)) throw err;
    outcome = await run();
  }
  if (outcome.log) announceAudit({ deps, rows: [outcome.log] });
  if (outcome.activatedUserId !== null) {
    try {
      await props.onUserChanged(outcome.activatedUserId);
    } catch (err) {
      deps.logger.error({ err, userId: outcome.activatedUserId }, 'trading refresh after webhook failed');
    }
  }
  return { duplicate: outcome.duplicate, activatedUserId: outcome.activatedUserId, note: outcome.note };
}
