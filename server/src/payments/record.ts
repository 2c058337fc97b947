// The one path every verified payment takes, whatever its source (browser checkout, webhook, reconciliation,
// approved UPI request, admin activation with a payment): record the payment, claim the offer use, extend the
// subscription and issue the GST invoice, all inside the caller's transaction. Callers publish events and refresh
// the trading engine after their commit.
import type { Deps } from '../deps';
import {
  claimOfferUse,
  findOfferById,
  findPlanById,
  findUserById,
  insertPayment,
  type Db,
  type InvoiceRow,
  type LogRow,
  type PaymentRow,
  type SubscriptionRow,
  type UserRow,
} from '../db';
import { issueInvoice } from '../invoices/issue';
import { recordNotice } from '../notifications/outbox';
import { taxableOfInclusive } from '../invoices/tax';
import { recordAudit } from '../services/audit';
import { offerDiscountPaise, priceOf } from './pricing';
import { activateSubscription } from './subscription';

const IST_DATE = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', dateStyle: 'medium' });

export type PaymentSource = 'checkout' | 'webhook' | 'reconciliation' | 'upi_request' | 'admin';

export interface RecordPaymentInput {
  trx: Db;
  deps: Pick<Deps, 'clock' | 'config'>;
  userId: number;
  method: PaymentRow['method'];
  /** what was actually received, integer paise (GST included) */
  amountPaise: number;
  planId: number;
  offerId?: number | null;
  /** Razorpay's `pay_…` id: unique, so a second recording of the same payment raises a unique violation */
  providerPaymentId?: string | null;
  paymentOrderId?: number | null;
  paymentRequestId?: number | null;
  utr?: string | null;
  paidAt: number;
  /** who caused the recording (the payer, an admin, or null for the provider's webhook) and through which path */
  actor: { userId: number | null; source: PaymentSource };
  /** invoice recipient; defaults to the account's name and state */
  buyer?: { name?: string | null; stateCode?: string | null; gstin?: string | null };
  /** the taxable value when the caller priced it (a checkout order); otherwise derived from plan, offer and amount */
  taxablePaise?: number;
  /** the offer's discount when the caller priced it (a checkout order); otherwise derived from the offer */
  discountPaise?: number;
}

export interface RecordedPayment {
  payment: PaymentRow;
  subscription: SubscriptionRow;
  user: UserRow;
  invoice: InvoiceRow;
  /** false when the offer had no use left at payment time (the payment stands; used_count never passes max_users) */
  offerClaimed: boolean;
  /** publish with `announceAudit` after the commit */
  log: LogRow;
}

/** Records a verified payment, extends the subscription and issues the invoice. Call inside a transaction. */
export async function recordVerifiedPayment(input: RecordPaymentInput): Promise<RecordedPayment> {
  const { trx, deps, userId, amountPaise, paidAt } = input;
  const now = deps.clock.now();
  const plan = await findPlanById(trx, input.planId);
  if (!plan) throw new Error(`recordVerifiedPayment: no plan ${input.planId}`);
  const user = await findUserById(trx, userId);
  if (!user) throw new Error(`recordVerifiedPayment: no user ${userId}`);

  let offerClaimed = false;
  let discount = 0;
  let offerCode: string | null = null;
  if (input.offerId != null) {
    const offer = await findOfferById(trx, input.offerId);
    // Counted here, for a verified payment only; an order merely held the use (offers.ts).
    offerClaimed = await claimOfferUse(trx, input.offerId, now);
    if (offer) {
      discount = input.discountPaise ?? offerDiscountPaise(offer, plan.price_paise);
      offerCode = offer.code;
    }
  }
  const expected = priceOf(plan, discount);
  // A sum other than our price (e.g. a UPI transfer) is taxed as GST-inclusive at the plan's rate.
  const priced = amountPaise === expected.totalPaise;
  const taxable =
    input.taxablePaise ??
    (priced ? expected.totalPaise - expected.gstPaise : taxableOfInclusive(amountPaise, plan.gst_rate_bp));
  // The invoice shows a discount only where the amount was our discounted price.
  const invoiceDiscount = input.taxablePaise !== undefined || priced ? discount : 0;

  const payment = await insertPayment(
    trx,
    {
      user_id: userId,
      method: input.method,
      payment_order_id: input.paymentOrderId ?? null,
      payment_request_id: input.paymentRequestId ?? null,
      plan_id: plan.id,
      provider_payment_id: input.providerPaymentId ?? null,
      utr: input.utr ?? null,
      amount_paise: amountPaise,
      paid_at: paidAt,
      offer_id: offerClaimed ? (input.offerId ?? null) : null,
    },
    now,
  );
  const activation = await activateSubscription({
    db: trx,
    userId,
    plan,
    paymentId: payment.id,
    source: input.actor.source === 'admin' ? 'admin' : 'payment',
    createdBy: input.actor.userId,
    now,
  });
  const period = `${IST_DATE.format(activation.subscription.starts_at)} to ${IST_DATE.format(activation.subscription.ends_at)}`;
  const invoice = await issueInvoice({
    db: trx,
    operator: deps.config.operator,
    userId,
    paymentId: payment.id,
    subscriptionId: activation.subscription.id,
    description: `${plan.name} subscription (${plan.months} month${plan.months === 1 ? '' : 's'}), ${period}`,
    recipient: {
      name: input.buyer?.name ?? `${user.first_name} ${user.last_name}`.trim(),
      email: user.email,
      stateCode: input.buyer?.stateCode ?? user.state_code,
      gstin: input.buyer?.gstin ?? null,
    },
    taxablePaise: taxable,
    gstPaise: amountPaise - taxable,
    discount: invoiceDiscount > 0 ? { paise: invoiceDiscount, offerCode } : null,
    rateBp: plan.gst_rate_bp,
    issuedAt: paidAt,
  });
  const log = await recordAudit({
    db: trx,
    deps,
    entry: {
      type: 'payment',
      description: `Payment received (${input.actor.source}, ${input.method}): ${plan.name}, subscription until ${new Date(activation.subscription.ends_at).toISOString().slice(0, 10)}, invoice ${invoice.number}`,
      userId,
      actorId: input.actor.userId,
      data: {
        paymentId: payment.id,
        providerPaymentId: input.providerPaymentId ?? null,
        amountPaise,
        months: plan.months,
        invoice: invoice.number,
        offerClaimed,
      },
    },
  });
  // The receipt goes out through the notification outbox, committed or rolled back with the payment.
  await recordNotice(
    trx,
    {
      event: 'payment_received',
      userId,
      factKey: String(payment.id),
      payload: {
        paymentId: payment.id,
        amountPaise,
        planName: plan.name,
        paidAt,
        endsAt: activation.subscription.ends_at,
        invoiceId: invoice.id,
        invoiceNumber: invoice.number,
      },
    },
    now,
  );
  return {
    payment,
    subscription: activation.subscription,
    user: activation.user,
    invoice,
    offerClaimed,
    log,
  };
}
