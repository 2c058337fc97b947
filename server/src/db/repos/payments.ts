import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type {
  PaymentOrderRow,
  PaymentOrderStatus,
  PaymentRequestRow,
  PaymentRequestStatus,
  PaymentRow,
  SubscriptionRow,
} from '../rows';

const toPaymentOrder = rowMapper<PaymentOrderRow>();
const toPayment = rowMapper<PaymentRow>();
const toPaymentRequest = rowMapper<PaymentRequestRow>();
const toSubscription = rowMapper<SubscriptionRow>();

// ---- payment orders (checkout attempts) ----

type BuyerColumns = 'buyer_state_code' | 'buyer_gstin' | 'buyer_name';

export type NewPaymentOrder = Omit<
  PaymentOrderRow,
  'id' | 'currency' | 'status' | 'created_at' | 'paid_at' | BuyerColumns
> &
  Partial<Pick<PaymentOrderRow, 'currency' | 'status' | BuyerColumns>>;

export async function insertPaymentOrder(
  db: Db,
  order: NewPaymentOrder,
  now = Date.now(),
): Promise<PaymentOrderRow> {
  const [row] = await db('payment_orders')
    .insert({ ...order, created_at: now })
    .returning('*');
  return toPaymentOrder(row);
}

export async function findPaymentOrderByProviderId(
  db: Db,
  providerOrderId: string,
): Promise<PaymentOrderRow | undefined> {
  const row: unknown = await db('payment_orders').where({ provider_order_id: providerOrderId }).first();
  return row ? toPaymentOrder(row) : undefined;
}

/**
 * Moves an order from `created` to `paid` (or `failed`/`expired`) and returns it; undefined when it was no longer
 * `created`. Checkout verification and the webhook race for this: exactly one of them wins.
 */
export async function settlePaymentOrder(
  db: Db,
  id: number,
  status: Exclude<PaymentOrderStatus, 'created'>,
  now = Date.now(),
): Promise<PaymentOrderRow | undefined> {
  const [row] = await db('payment_orders')
    .where({ id, status: 'created' })
    .update({ status, paid_at: status === 'paid' ? now : null })
    .returning('*');
  return row ? toPaymentOrder(row) : undefined;
}

export async function listPaymentOrdersForUser(db: Db, userId: number): Promise<PaymentOrderRow[]> {
  return (
    await db('payment_orders')
      .where({ user_id: userId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
  ).map(toPaymentOrder);
}

// ---- payments (money received) ----

export type NewPayment = Pick<PaymentRow, 'user_id' | 'method' | 'amount_paise' | 'paid_at'> &
  Partial<Omit<PaymentRow, 'id' | 'user_id' | 'method' | 'amount_paise' | 'paid_at' | 'created_at'>>;

/** Records a payment; a repeated provider payment id (or order/request) raises a unique violation. */
export async function insertPayment(db: Db, payment: NewPayment, now = Date.now()): Promise<PaymentRow> {
  const [row] = await db('payments')
    .insert({ ...payment, created_at: now })
    .returning('*');
  return toPayment(row);
}

export async function findPaymentByProviderId(
  db: Db,
  providerPaymentId: string,
): Promise<PaymentRow | undefined> {
  const row: unknown = await db('payments').where({ provider_payment_id: providerPaymentId }).first();
  return row ? toPayment(row) : undefined;
}

export interface ListPaymentsFilter {
  userId?: number;
  /** inclusive */
  since?: number;
  /** exclusive */
  until?: number;
  limit?: number;
}

/** Most recent first. */
export async function listPayments(db: Db, filter: ListPaymentsFilter = {}): Promise<PaymentRow[]> {
  const query = db('payments').select('*');
  if (filter.userId !== undefined) query.where({ user_id: filter.userId });
  if (filter.since !== undefined) query.where('paid_at', '>=', filter.since);
  if (filter.until !== undefined) query.where('paid_at', '<', filter.until);
  query.orderBy([
    { column: 'paid_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (filter.limit !== undefined) query.limit(filter.limit);
  return (await query).map(toPayment);
}

// ---- payment requests (manual UPI / bank transfer) ----

export type NewPaymentRequest = Pick<PaymentRequestRow, 'user_id' | 'utr_number' | 'amount_paise'> &
  Partial<Pick<PaymentRequestRow, 'plan_id' | 'method' | 'screenshot_path'>>;

/** A UTR already claimed raises a unique violation. */
export async function insertPaymentRequest(
  db: Db,
  request: NewPaymentRequest,
  now = Date.now(),
): Promise<PaymentRequestRow> {
  const [row] = await db('payment_requests')
    .insert({ ...request, created_at: now })
    .returning('*');
  return toPaymentRequest(row);
}

export async function findPaymentRequest(db: Db, id: number): Promise<PaymentRequestRow | undefined> {
  const row: unknown = await db('payment_requests').where({ id }).first();
  return row ? toPaymentRequest(row) : undefined;
}

export async function listPaymentRequests(
  db: Db,
  filter: { status?: PaymentRequestStatus; userId?: number; since?: number; limit?: number } = {},
): Promise<PaymentRequestRow[]> {
  const query = db('payment_requests').select('*');
  if (filter.status) query.where({ status: filter.status });
  if (filter.userId !== undefined) query.where({ user_id: filter.userId });
  if (filter.since !== undefined) query.where('created_at', '>=', filter.since);
  query.orderBy([
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (filter.limit !== undefined) query.limit(filter.limit);
  return (await query).map(toPaymentRequest);
}

/** Approves or rejects a pending request; undefined when it was not pending (already reviewed). */
export async function reviewPaymentRequest(
  db: Db,
  id: number,
  review: {
    status: Exclude<PaymentRequestStatus, 'pending'>;
    reviewedBy: number;
    adminNotes?: string | null;
  },
  now = Date.now(),
): Promise<PaymentRequestRow | undefined> {
  const [row] = await db('payment_requests')
    .where({ id, status: 'pending' })
    .update({
      status: review.status,
      reviewed_by: review.reviewedBy,
      reviewed_at: now,
      approved_at: review.status === 'approved' ? now : null,
      admin_notes: review.adminNotes ?? null,
    })
    .returning('*');
  return row ? toPaymentRequest(row) : undefined;
}

// ---- subscriptions (history of periods) ----

export type NewSubscription = Pick<SubscriptionRow, 'user_id' | 'starts_at' | 'ends_at'> &
  Partial<Pick<SubscriptionRow, 'plan_id' | 'source' | 'payment_id' | 'created_by'>>;

/** Records a period; a second row for the same payment raises a unique violation (no double extension). */
export async function insertSubscription(
  db: Db,
  sub: NewSubscription,
  now = Date.now(),
): Promise<SubscriptionRow> {
  const [row] = await db('subscriptions')
    .insert({ ...sub, created_at: now })
    .returning('*');
  return toSubscription(row);
}

export async function listSubscriptionsForUser(db: Db, userId: number): Promise<SubscriptionRow[]> {
  return (
    await db('subscriptions')
      .where({ user_id: userId })
      .orderBy([
        { column: 'starts_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
  ).map(toSubscription);
}
