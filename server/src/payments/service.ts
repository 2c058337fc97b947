// Checkout commands: create an order priced by the server, sign a test-mode checkout, verify a checkout result and
// activate the subscription. Slow or outside work (the provider call) happens before the transaction; each
// transaction is short and touches only `trx`; events go out after the commit.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  AppliedOfferDto,
  CheckoutQuoteDto,
  CheckoutResult,
  checkoutQuoteSchema,
  CreateOrderResponse,
  SubscriptionDto,
  createOrderSchema,
  verifyPaymentSchema,
} from '../contract';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import {
  findPaymentByProviderId,
  findPaymentOrderByProviderId,
  findPlanByCode,
  findUserById,
  insertPaymentOrder,
  isUniqueViolation,
  listPlans,
  settlePaymentOrder,
  type LogRow,
  type OfferRow,
  type PaymentOrderRow,
  type PlanRow,
} from '../db';
import { presentPlan } from '../presenters/plan';
import { announceAudit, recordAudit } from '../services/audit';
import { RazorpayError, type RazorpayPayment } from './razorpayApi';
import { randomProviderId, type PaymentGateway } from './gateway';
import { holdOfferUse, offerForCheckout } from './offers';
import { offerDiscountPaise, priceOf, type Price } from './pricing';
import { recordVerifiedPayment } from './record';
import { subscriptionView } from './subscription';
import { isValidCheckoutSignature, checkoutSignature } from './signature';

type PaymentDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'config'>;

/** The plan a checkout buys: the named one if it is on sale, else the first plan on sale. */
async function planOnSale(deps: PaymentDeps, planCode: string | undefined): Promise<PlanRow> {
  const plan = planCode
    ? await findPlanByCode(deps.db.knex, planCode)
    : (await listPlans(deps.db.knex, { activeOnly: true }))[0];
  if (!plan || !plan.active) {
    throw new AppError('validation_failed', {
      message: planCode ? `planCode: no plan "${planCode}" is on sale` : 'No plan is on sale at the moment.',
      field: 'planCode',
    });
  }
  return plan;
}

/** `op_<user>_<time>_<random>`: unique, ≤ 40 characters as Razorpay requires. */
function receiptFor(userId: number, now: number): string {
  return `op_${userId}_${now.toString(36)}_${randomBytes(4).toString('hex')}`.slice(0, 40);
}

/** A checkout's plan, offer and price at `now` (integer paise): what the quote shows and the order charges. */
async function priceCheckout(
  deps: PaymentDeps,
  input: z.output<typeof checkoutQuoteSchema>,
  now: number,
): Promise<{ plan: PlanRow; offer: OfferRow | null; price: Price }> {
  const plan = await planOnSale(deps, input.planCode);
  const offer =
    input.offerCode === undefined ? null : await offerForCheckout(deps.db.knex, input.offerCode, plan, now);
  const price = priceOf(plan, offer ? offerDiscountPaise(offer, plan.price_paise) : 0);
  return { plan, offer, price };
}

function presentOffer(offer: OfferRow | null, price: Price): AppliedOfferDto | null {
  if (!offer?.code) return null;
  return {
    code: offer.code,
    name: offer.name,
    discountPercent: offer.discount_paise === null ? offer.discount_bp / 100 : null,
    discountPaise: price.discountPaise,
  };
}

/** What a checkout would cost now; the offer code is checked as create-order checks it. */
export async function quoteCheckout(
  deps: PaymentDeps,
  input: z.output<typeof checkoutQuoteSchema>,
): Promise<CheckoutQuoteDto> {
  const { plan, offer, price } = await priceCheckout(deps, input, deps.clock.now());
  return {
    plan: presentPlan(plan, price),
    listPricePaise: plan.price_paise,
    offer: presentOffer(offer, price),
  };
}

/**
 * Creates a checkout order for `userId`. The amount comes from the plan and the offer (price − discount + GST,
 * integer paise); whatever amount the browser sent is ignored. An offer's use is held by the order (offers.ts).
 */
export async function createPaymentOrder(props: {
  deps: PaymentDeps;
  gateway: PaymentGateway;
  userId: number;
  input: z.output<typeof createOrderSchema>;
}): Promise<{ order: PaymentOrderRow; response: CreateOrderResponse }> {
  const { deps, gateway, userId, input } = props;
  const now = deps.clock.now();
  const { plan, offer, price } = await priceCheckout(deps, input, now);
  const receipt = receiptFor(userId, now);
  let providerOrderId: string;
  try {
    providerOrderId = (
      await gateway.createOrder({
        amountPaise: price.totalPaise,
        receipt,
        notes: { userId: String(userId), plan: plan.code, ...(offer?.code ? { offer: offer.code } : {}) },
      })
    ).id;
  } catch (err) {
    if (!(err instanceof RazorpayError)) throw err;
    throw providerUnavailable(deps, err);
  }
  const order = await deps.db.knex.transaction(async (trx) => {
    if (offer) await holdOfferUse(trx, offer, userId, now);
    return insertPaymentOrder(
      trx,
      {
        user_id: userId,
        provider: gateway.provider,
        provider_order_id: providerOrderId,
        plan_id: plan.id,
        offer_id: offer?.id ?? null,
        base_paise: price.basePaise,
        discount_paise: price.discountPaise,
        gst_paise: price.gstPaise,
        amount_paise: price.totalPaise,
        receipt,
        buyer_state_code: input.buyer?.stateCode ?? null,
        buyer_gstin: input.buyer?.gstin ?? null,
        buyer_name: input.buyer?.name ?? null,
      },
      now,
    );
  });
  return {
    order,
    response: {
      id: order.provider_order_id,
      amount: order.amount_paise,
      currency: 'INR',
      plan: presentPlan(plan, price),
      offer: presentOffer(offer, price),
      testMode: gateway.testMode,
      keyId: gateway.keyId,
      checkoutUrl: gateway.checkoutUrl,
    },
  };
}

/**
 * Live mode: the signature proves the browser saw the payment; Razorpay's own record must also show it for this
 * order, for the order's amount in rupees, captured or authorized, before anything is activated. A mismatch is
 * audited and refused; an unreachable Razorpay is a 503 (the webhook or the reconciliation job activates later).
 */
async function confirmWithProvider(
  deps: PaymentDeps,
  gateway: PaymentGateway,
  order: PaymentOrderRow,
  paymentId: string,
): Promise<void> {
  let payment: RazorpayPayment | null | undefined;
  try {
    payment = await gateway.fetchPayment(paymentId);
  } catch (err) {
    // Razorpay refuses an unknown payment id with a 4xx; anything else means it could not answer.
    if (err instanceof RazorpayError && err.status >= 400 && err.status < 500) payment = undefined;
    else throw providerUnavailable(deps, err);
  }
  if (payment === null) return; // test mode
  const problem =
    payment === undefined
      ? 'Razorpay has no such payment'
      : payment.order_id !== order.provider_order_id
        ? 'the payment belongs to another order'
        : payment.amount !== order.amount_paise || payment.currency !== 'INR'
          ? 'the amount paid is not the order amount'
          : payment.status !== 'captured' && payment.status !== 'authorized'
            ? `the payment is ${payment.status}`
            : null;
  if (problem === null) return;
  const log = await recordAudit({
    db: deps.db.knex,
    deps,
    entry: {
      type: 'payment',
      description: `Payment verification failed: ${problem}`,
      userId: order.user_id,
      data: { orderId: order.provider_order_id, paymentId },
    },
  });
  announceAudit({ deps, rows: [log] });
  throw new AppError('validation_failed', {
    message: `Payment verification failed: ${problem}.`,
    field: 'razorpay_payment_id',
  });
}

function providerUnavailable(deps: PaymentDeps, err: unknown): AppError {
  const { status, code, message } =
    err instanceof RazorpayError ? err : { status: 0, code: null, message: '' };
  deps.logger.error({ status, code, message }, 'razorpay call failed');
  return new AppError('service_unavailable', {
    message: 'The payment provider is not available right now. Please try again in a few minutes.',
    cause: err,
  });
}

/** The caller's own order, or 404 (another user's order is indistinguishable from a missing one). */
async function ownOrder(
  deps: PaymentDeps,
  userId: number,
  providerOrderId: string,
): Promise<PaymentOrderRow> {
  const order = await findPaymentOrderByProviderId(deps.db.knex, providerOrderId);
  if (!order || order.user_id !== userId)
    throw new AppError('not_found', { message: 'No such payment order.' });
  return order;
}

/**
 * Test mode only: the three checkout fields the provider's checkout would return for the caller's unpaid order,
 * signed with the server's test secret. In live mode the endpoint does not exist (404).
 */
export async function testCheckout(props: {
  deps: PaymentDeps;
  gateway: PaymentGateway;
  userId: number;
  orderId: string;
}): Promise<CheckoutResult> {
  const { deps, gateway, userId, orderId } = props;
  if (!gateway.testMode)
    throw new AppError('not_found', { message: 'Test checkout exists only in payment test mode.' });
  const order = await ownOrder(deps, userId, orderId);
  if (order.status !== 'created') {
    throw new AppError('validation_failed', {
      message: 'orderId: this order is already settled.',
      field: 'orderId',
    });
  }
  const paymentId = randomProviderId('pay_test');
  return {
    razorpay_order_id: order.provider_order_id,
    razorpay_payment_id: paymentId,
    razorpay_signature: checkoutSignature(order.provider_order_id, paymentId, gateway.signingSecret),
  };
}

export interface VerifiedPayment {
  subscription: SubscriptionDto;
  /** false when this payment had already been verified (nothing changed) */
  activated: boolean;
}

/**
 * Verifies a checkout result against the order stored on the server and, the first time, marks the order paid,
 * records the payment, extends the subscription and writes the audit entry in one transaction. Verifying the same
 * payment again changes nothing. `onUserChanged` runs after the commit (the trading engine re-evaluates the user).
 */
export async function verifyPayment(props: {
  deps: PaymentDeps;
  gateway: PaymentGateway;
  userId: number;
  input: z.output<typeof verifyPaymentSchema>;
  onUserChanged: (userId: number) => Promise<void>;
}): Promise<VerifiedPayment> {
  const { deps, gateway, userId, input } = props;
  const order = await ownOrder(deps, userId, input.razorpay_order_id);
  const valid = isValidCheckoutSignature({
    orderId: order.provider_order_id,
    paymentId: input.razorpay_payment_id,
    signature: input.razorpay_signature,
    secret: gateway.signingSecret,
  });
  if (!valid) {
    const log = await recordAudit({
      db: deps.db.knex,
      deps,
      entry: {
        type: 'payment',
        description: 'Payment verification failed: signature mismatch',
        userId,
        data: { orderId: order.provider_order_id },
      },
    });
    announceAudit({ deps, rows: [log] });
    throw new AppError('validation_failed', {
      message: 'Payment verification failed: the payment signature does not match.',
      field: 'razorpay_signature',
    });
  }

  // A payment already recorded (by the webhook or an earlier verify) was confirmed then; the transaction below
  // answers the repeat.
  if ((await findPaymentByProviderId(deps.db.knex, input.razorpay_payment_id)) === undefined) {
    await confirmWithProvider(deps, gateway, order, input.razorpay_payment_id);
  }

  const now = deps.clock.now();
  let outcome: { activated: boolean; log: LogRow | null };
  try {
    outcome = await deps.db.knex.transaction(async (trx) => {
      const previous = await findPaymentByProviderId(trx, input.razorpay_payment_id);
      if (previous) {
        if (previous.payment_order_id !== order.id || previous.user_id !== userId) {
          throw new AppError('validation_failed', {
            message: 'razorpay_payment_id: this payment belongs to another order.',
            field: 'razorpay_payment_id',
          });
        }
        return { activated: false, log: null };
      }
      const settled = await settlePaymentOrder(trx, order.id, 'paid', now);
      if (!settled) {
        // PostgreSQL: a concurrent verification of this same payment settled the order while we waited for its
        // row lock; its payment row is visible now, and this call is a repeat.
        const winner = await findPaymentByProviderId(trx, input.razorpay_payment_id);
        if (winner?.payment_order_id === order.id && winner.user_id === userId)
          return { activated: false, log: null };
        throw new AppError('validation_failed', {
          message: 'razorpay_order_id: this order is already settled.',
          field: 'razorpay_order_id',
        });
      }
      const { log } = await recordVerifiedPayment({
        trx,
        deps,
        userId,
        method: gateway.provider === 'test' ? 'test' : 'razorpay',
        amountPaise: order.amount_paise,
        planId: order.plan_id,
        offerId: order.offer_id,
        providerPaymentId: input.razorpay_payment_id,
        paymentOrderId: order.id,
        paidAt: now,
        actor: { userId, source: 'checkout' },
        buyer: { name: order.buyer_name, stateCode: order.buyer_state_code, gstin: order.buyer_gstin },
        taxablePaise: order.base_paise - order.discount_paise,
        discountPaise: order.discount_paise,
      });
      return { activated: true, log };
    });
  } catch (err) {
    // A concurrent verification of the same payment won the race: the payment is recorded once, nothing to do.
    if (!isUniqueViolation(err)) throw err;
    const existing = await findPaymentByProviderId(deps.db.knex, input.razorpay_payment_id);
    if (existing?.payment_order_id !== order.id) throw err;
    outcome = { activated: false, log: null };
  }

  if (outcome.log) announceAudit({ deps, rows: [outcome.log] });
  if (outcome.activated) {
    try {
      await props.onUserChanged(userId);
    } catch (err) {
      // The payment is committed; a failed engine refresh must not turn it into an error for the payer.
      deps.logger.error({ err, userId }, 'trading refresh after payment failed');
    }
  }
  const user = await findUserById(deps.db.knex, userId);
  if (!user) throw new AppError('session_expired');
  return {
    subscription: await subscriptionView({ db: deps.db.knex, user, now }),
    activated: outcome.activated,
  };
}
