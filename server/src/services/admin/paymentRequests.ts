// Manual (UPI / bank transfer) payment requests: the admins' review list and the review itself. Approval records
// the payment and extends the subscription exactly as a verified checkout does (activateSubscription, one
// transaction, audited, idempotent); the trader's dashboard hears of it after the commit.
import type { z } from 'zod';
import type {
  PageDto,
  PaymentRequestDto,
  paymentRequestsQuerySchema,
  reviewPaymentRequestSchema,
} from '../../contract';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import {
  findPaymentRequest,
  findPlanById,
  findUserById,
  planOrFirstOnSale,
  reviewPaymentRequest,
  type Db,
  type LogRow,
  type PaymentRequestRow,
  type PlanRow,
} from '../../db';
import { recordVerifiedPayment } from '../../payments/record';
import { subscriptionView } from '../../payments/subscription';
import { presentPaymentRequest } from '../../presenters/adminPayment';
import { announceAudit, recordAudit } from '../audit';
import { inWindow, pageOf, whereUserMatches, windowOf } from './listing';

type RequestsQuery = z.output<typeof paymentRequestsQuerySchema>;

/** Presents request rows with their users and plans, looked up once per page. */
export async function presentRequests(
  db: Db,
  rows: readonly PaymentRequestRow[],
): Promise<PaymentRequestDto[]> {
  const out: PaymentRequestDto[] = [];
  const plans = new Map<number, PlanRow | undefined>();
  for (const row of rows) {
    const user = await findUserById(db, row.user_id);
    if (!user) continue;
    let plan: PlanRow | undefined;
    if (row.plan_id !== null) {
      if (!plans.has(row.plan_id)) plans.set(row.plan_id, await findPlanById(db, row.plan_id));
      plan = plans.get(row.plan_id);
    }
    out.push(presentPaymentRequest(row, user, plan ?? null));
  }
  return out;
}

/** `GET /api/admin/payment-requests` (and a user's own requests when `userId` is given). */
export async function listPaymentRequestsPage(props: {
  db: Db;
  query: RequestsQuery;
  userId?: number;
  now: number;
}): Promise<PageDto<PaymentRequestDto>> {
  const { db, query, now } = props;
  const builder = db('payment_requests')
    .join('users', 'users.id', 'payment_requests.user_id')
    .select('payment_requests.*');
  if (query.status !== 'all') void builder.where('payment_requests.status', query.status);
  if (props.userId !== undefined) void builder.where('payment_requests.user_id', props.userId);
  whereUserMatches(builder, query.search, 'users', ['payment_requests.utr_number']);
  inWindow(builder, 'payment_requests.created_at', windowOf(query, now));
  const page = await pageOf<PaymentRequestRow>({
    builder,
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'payment_requests.created_at', order: 'desc' },
      { column: 'payment_requests.id', order: 'desc' },
    ],
    map: (raw) => raw as unknown as PaymentRequestRow,
  });
  return { ...page, items: await presentRequests(db, page.items) };
}

/** The plan a request pays for: the one it named, else the first plan on sale. */

export interface ReviewOutcome {
  request: PaymentRequestDto;
  /** false when the request was already in the asked state (nothing changed) */
  changed: boolean;
}

/** `PATCH /api/admin/payment-requests/:id`: approve (pay + activate) or reject (with the note the trader sees). */
export async function reviewRequest(props: {
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'logger' | 'realtime' | 'trading'>;
  adminId: number;
  id: number;
  input: z.output<typeof reviewPaymentRequestSchema>;
}): Promise<ReviewOutcome> {
  const { deps, adminId, id, input } = props;
  const db = deps.db.knex;
  const existing = await findPaymentRequest(db, id);
  if (!existing) throw new AppError('not_found', { message: `No payment request with id ${id}.` });
  if (existing.status !== 'pending') {
    // Approving twice (a double click, a retry) is a no-op; changing a reviewed decision is refused.
    if (existing.status === input.status) {
      const [request] = await presentRequests(db, [existing]);
      if (!request) throw new AppError('not_found');
      return { request, changed: false };
    }
    throw new AppError('payment_request_reviewed', {
      message: `This payment request was already ${existing.status}.`,
    });
  }
  const now = deps.clock.now();
  const result = await db.transaction(
    async (trx): Promise<{ row: PaymentRequestRow; log: LogRow } | null> => {
      const row = await reviewPaymentRequest(
        trx,
        id,
        { status: input.status, reviewedBy: adminId, adminNotes: input.adminNotes ?? null },
        now,
      );
      if (!row) return null;
      if (input.status === 'rejected') {
        const log = await recordAudit({
          db: trx,
          deps,
          entry: {
            type: 'payment',
            description: `Payment request #${id} rejected: ${input.adminNotes ?? ''}`.trim(),
            userId: row.user_id,
            actorId: adminId,
            data: { requestId: id, before: 'pending', after: 'rejected', utr: row.utr_number },
          },
        });
        return { row, log };
      }
      const plan = await planOrFirstOnSale(trx, row.plan_id);
      // The one path of every verified payment: payment row, subscription extended, GST invoice, audit.
      const recorded = await recordVerifiedPayment({
        trx,
        deps,
        userId: row.user_id,
        method: row.method,
        amountPaise: row.amount_paise,
        planId: plan.id,
        paymentRequestId: row.id,
        utr: row.utr_number,
        paidAt: now,
        actor: { userId: adminId, source: 'upi_request' },
      });
      const log = await recordAudit({
        db: trx,
        deps,
        entry: {
          type: 'payment',
          description: `Payment request #${id} approved (${row.method.toUpperCase()} ${row.utr_number}): ${plan.name}, subscription until ${new Date(recorded.subscription.ends_at).toISOString().slice(0, 10)}, invoice ${recorded.invoice.number}`,
          userId: row.user_id,
          actorId: adminId,
          data: {
            requestId: id,
            paymentId: recorded.payment.id,
            amountPaise: row.amount_paise,
            before: 'pending',
            after: 'approved',
          },
        },
      });
      return { row, log };
    },
  );
  // Another admin reviewed it between our read and our update: answer with what they decided.
  if (!result) return reviewRequest(props);

  announceAudit({ deps, rows: [result.log] });
  const [request] = await presentRequests(db, [result.row]);
  if (!request) throw new AppError('not_found');
  deps.realtime.toUser(result.row.user_id, 'user:payment-request', request);
  if (input.status === 'approved') {
    const user = await findUserById(db, result.row.user_id);
    if (user) deps.realtime.toUser(user.id, 'user:subscription', await subscriptionView({ db, user, now }));
    try {
      await deps.trading.onUserChanged(result.row.user_id);
    } catch (err) {
      // The approval is committed; a failed engine refresh must not turn it into an error for the admin.
      deps.logger.error({ err, userId: result.row.user_id }, 'trading refresh after approval failed');
    }
  }
  return { request, changed: true };
}
