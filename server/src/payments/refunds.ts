// Refunds (issue 11). An admin returns all or part of a recorded payment and chooses what happens to the
// subscription it paid for. Razorpay payments are refunded through Razorpay; UPI transfers, bank transfers and
// test-mode payments have no provider to ask, so the admin returns the money outside OptionPilot and the refund
// is recorded here. Either way a processed refund issues a GST credit note against the payment's invoice.
//
// Persist before send: the refund row is written `pending` (holding its amount, so concurrent refunds never
// exceed the payment) and committed before Razorpay is asked; Razorpay's answer settles it `processed` or
// `failed`. A refund left `pending` by a crash in between is settled by the `refund.processed` webhook, which
// names our refund id in its notes.
import { formatPaise } from '@optionpilot/engine/money';
import type { refundPaymentSchema } from '../contract';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import {
  findInvoiceByPayment,
  findRefund,
  insertRefund,
  refundedPaise,
  settleRefund,
  toNumber,
  updateUser,
  findUserById,
  type CreditNoteRow,
  type Db,
  type LogRow,
  type PaymentRow,
  type RefundRow,
} from '../db';
import { issueCreditNote } from '../invoices/creditNote';
import { recordNotice } from '../notifications/outbox';
import { announceAudit, recordAudit } from '../services/audit';
import type { z } from 'zod';
import type { PaymentGateway } from './gateway';

type RefundInput = z.output<typeof refundPaymentSchema>;
type RefundDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'config' | 'trading'>;

export interface RefundOutcome {
  refund: RefundRow;
  creditNote: CreditNoteRow | null;
}

/**
 * The payment's row, locked for the rest of the transaction by a no-op update (the row lock on PostgreSQL, the
 * write lock on SQLite), the way offers.ts holds an offer: two refunds of one payment run one after the other.
 */
async function lockPayment(trx: Db, id: number): Promise<PaymentRow | undefined> {
  const locked = await trx('payments')
    .where({ id })
    .update({ status: trx.raw('status') });
  if (locked === 0) return undefined;
  const row = (await trx('payments').where({ id }).first()) as
    (PaymentRow & { amount_paise: number | string }) | undefined;
  return row ? { ...row, amount_paise: toNumber(row.amount_paise) } : undefined;
}

/** Applies the admin's choice to the subscription the payment bought; returns the new end, if changed. */
async function adjustSubscription(props: {
  trx: Db;
  userId: number;
  input: RefundInput;
  now: number;
}): Promise<number | null> {
  const { trx, userId, input, now } = props;
  if (input.endAction === 'keep') return null;
  const user = await findUserById(trx, userId);
  if (!user) return null;
  const endAt = input.endAction === 'end_now' ? now : Date.parse(input.endDate ?? '');
  const stillRunning = endAt > now && user.subscription_status === 'active';
  await updateUser(
    trx,
    userId,
    {
      subscription_end_at: endAt,
      subscription_status: stillRunning
        ? 'active'
        : user.subscription_status === 'active'
          ? 'expired'
          : user.subscription_status,
    },
    now,
  );
  return endAt;
}

/**
 * Marks a pending refund processed, issues its credit note, marks the payment refunded once nothing is left and
 * applies the subscription change; inside `trx`. Null when the refund had already left `pending`.
 */
async function completeRefund(props: {
  trx: Db;
  deps: Pick<Deps, 'clock' | 'config'>;
  refund: RefundRow;
  providerRefundId: string | null;
  input: RefundInput | null;
  adminId: number | null;
}): Promise<{ outcome: RefundOutcome; log: LogRow; endAt: number | null } | null> {
  const { trx, deps, refund } = props;
  const now = deps.clock.now();
  const settled = await settleRefund(
    trx,
    refund.id,
    { status: 'processed', providerRefundId: props.providerRefundId },
    now,
  );
  if (!settled) return null;
  const invoice = await findInvoiceByPayment(trx, refund.payment_id);
  const creditNote = invoice
    ? await issueCreditNote({
        db: trx,
        operator: deps.config.operator,
        invoice,
        refund: { id: refund.id, amountPaise: refund.amount_paise, reason: refund.reason },
        issuedAt: now,
      })
    : null;
  const payment = await lockPayment(trx, refund.payment_id);
  const refundedInFull =
    payment !== undefined && (await refundedPaise(trx, payment.id, true)) >= payment.amount_paise;
  if (refundedInFull) await trx('payments').where({ id: refund.payment_id }).update({ status: 'refunded' });
  const endAt = props.input
    ? await adjustSubscription({ trx, userId: refund.user_id, input: props.input, now })
    : null;
  const log = await recordAudit({
    db: trx,
    deps,
    entry: {
      type: 'payment',
      description:
        `Refund of ${formatPaise(refund.amount_paise)} on payment #${refund.payment_id}` +
        (creditNote ? `, credit note ${creditNote.number}` : '') +
        (endAt !== null ? `; subscription now ends ${new Date(endAt).toISOString()}` : ''),
      userId: refund.user_id,
      actorId: props.adminId,
      data: {
        refundId: refund.id,
        paymentId: refund.payment_id,
        amountPaise: refund.amount_paise,
        providerRefundId: props.providerRefundId,
        creditNote: creditNote?.number ?? null,
      },
    },
  });
  // Settled once (settleRefund above returns nothing the second time), so the notice is recorded once.
  await recordNotice(
    trx,
    {
      event: 'refund_issued',
      userId: refund.user_id,
      factKey: String(refund.id),
      payload: {
        refundId: refund.id,
        paymentId: refund.payment_id,
        amountPaise: refund.amount_paise,
        creditNoteNumber: creditNote?.number ?? null,
        endAt,
      },
    },
    now,
  );
  const fresh = (await findRefund(trx, refund.id)) ?? refund;
  return { outcome: { refund: fresh, creditNote }, log, endAt };
}

/** `POST /api/admin/payments/:id/refund` */
export async function refundPayment(props: {
  deps: RefundDeps;
  gateway: PaymentGateway;
  adminId: number;
  paymentId: number;
  input: RefundInput;
}): Promise<RefundOutcome> {
  const { deps, gateway, adminId, input } = props;
  const knex = deps.db.knex;

  // 1. Reserve the amount (and, for a payment with no provider, finish in the same transaction).
  const reserved = await knex.transaction(async (trx) => {
    const payment = await lockPayment(trx, props.paymentId);
    if (!payment) throw new AppError('not_found', { message: 'No such payment.' });
    if (payment.status !== 'captured') throw new AppError('payment_not_refundable');
    const left = payment.amount_paise - (await refundedPaise(trx, payment.id));
    if (left <= 0) throw new AppError('payment_not_refundable');
    if (input.amountPaise > left)
      throw new AppError('validation_failed', {
        message: `amountPaise: at most ${left} paise (${formatPaise(left)}) of this payment can still be refunded.`,
        field: 'amountPaise',
      });
    const viaProvider = payment.method === 'razorpay';
    if (viaProvider && (gateway.testMode || !payment.provider_payment_id))
      throw new AppError('service_unavailable', {
        message: 'Razorpay is not configured, so a Razorpay payment cannot be refunded from here.',
      });
    const refund = await insertRefund(
      trx,
      {
        payment_id: payment.id,
        user_id: payment.user_id,
        amount_paise: input.amountPaise,
        status: 'pending',
        reason: input.reason,
        created_by: adminId,
      },
      deps.clock.now(),
    );
    if (viaProvider) return { refund, providerPaymentId: payment.provider_payment_id, done: null };
    const done = await completeRefund({ trx, deps, refund, providerRefundId: null, input, adminId });
    return { refund, providerPaymentId: null, done };
  });

  let done = reserved.done;
  if (reserved.providerPaymentId !== null) {
    // 2. Ask Razorpay, outside any transaction.
    let providerRefundId: string;
    try {
      const answer = await gateway.refund(reserved.providerPaymentId, input.amountPaise, {
        refund_id: String(reserved.refund.id),
      });
      providerRefundId = answer.id;
    } catch (err) {
      await settleRefund(knex, reserved.refund.id, { status: 'failed' }, deps.clock.now());
      deps.logger.warn({ err, refundId: reserved.refund.id }, 'Razorpay refused or did not answer a refund');
      throw new AppError('service_unavailable', {
        message: `Razorpay did not refund the payment: ${err instanceof Error ? err.message : 'no answer'}. Nothing was refunded; try again.`,
      });
    }
    // 3. Record Razorpay's answer, the credit note and the subscription change.
    done = await knex.transaction((trx) =>
      completeRefund({ trx, deps, refund: reserved.refund, providerRefundId, input, adminId }),
    );
  }
  if (!done) {
    // The refund.processed webhook settled it between Razorpay's answer and our transaction.
    const refund = (await findRefund(knex, reserved.refund.id)) ?? reserved.refund;
    return { refund, creditNote: null };
  }
  announceAudit({ deps, rows: [done.log] });
  if (done.endAt !== null) {
    try {
      await deps.trading.onUserChanged(done.outcome.refund.user_id);
    } catch (err) {
      deps.logger.error({ err, userId: done.outcome.refund.user_id }, 'trading refresh after refund failed');
    }
  }
  return done.outcome;
}

/**
 * `refund.processed` webhook: settles a refund our server left `pending` (crash between Razorpay's answer and
 * the commit), found by the refund id in its notes or by Razorpay's refund id. Inside the webhook's transaction.
 */
export async function settleRefundFromWebhook(props: {
  trx: Db;
  deps: Pick<Deps, 'clock' | 'config'>;
  providerRefundId: string;
  refundIdNote: string | undefined;
}): Promise<{ note: string; log: LogRow | null }> {
  const { trx } = props;
  const byProvider = (await trx('refunds').where({ provider_refund_id: props.providerRefundId }).first()) as
    { id: number } | undefined;
  const id = byProvider?.id ?? (props.refundIdNote ? Number(props.refundIdNote) : NaN);
  const refund = Number.isSafeInteger(id) ? await findRefund(trx, id) : undefined;
  if (!refund) return { note: 'unknown refund', log: null };
  const done = await completeRefund({
    trx,
    deps: props.deps,
    refund,
    providerRefundId: props.providerRefundId,
    input: null,
    adminId: null,
  });
  return done
    ? { note: 'refund settled by webhook', log: done.log }
    : { note: 'refund already settled', log: null };
}
