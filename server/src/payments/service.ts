// Checkout commands: create an order priced by the server, sign a test-mode checkout, verify a checkout result and
// activate the subscription. Slow or outside work (the provider call) happens before the transaction; each
// transaction is short and touches only `trx`; events go out after the commit.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  CheckoutResult,
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
  findPlanById,
  findUserById,
  insertPayment,
  insertPaymentOrder,
  isUniqueViolation,
  listPlans,
  settlePaymentOrder,
  type LogRow,
  type PaymentOrderRow,
  type PlanRow,
} from '../db';
import { presentPlan } from '../presenters/plan';
import { announceAudit, recordAudit } from '../services/audit';
import { RazorpayError } from './razorpayClient';
import { randomProviderId, type PaymentGateway } from './gateway';
import { priceOf } from './pricing';
import { activateSubscription, subscriptionView } from './subscription';
import { isValidCheckoutSignature, checkoutSignature } from './signature';

type PaymentDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime'>;

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

/**
 * Creates a checkout order for `userId`. The amount comes from the plan (price + GST, integer paise); whatever
 * amount the browser sent is ignored.
 */
export async function createPaymentOrder(props: {
  deps: PaymentDeps;
  gateway: PaymentGateway;
  userId: number;
  input: z.output<typeof createOrderSchema>;
}): Promise<{ order: PaymentOrderRow; response: CreateOrderResponse }> {
  const { deps, gateway, userId, input } = props;
  const plan = await planOnSale(deps, input.planCode);
  const price = priceOf(plan);
  const now = deps.clock.now();
  const receipt = receiptFor(userId, now);
  let providerOrderId: string;
  try {
    providerOrderId = (
      await gateway.createOrder({
        amountPaise: price.totalPaise,
        receipt,
        notes: { userId: String(userId), plan: plan.code },
      })
    ).id;
  } catch (err) {
    if (!(err instanceof RazorpayError)) throw err;
    deps.logger.error({ status: err.status, code: err.code, message: err.message }, 'razorpay order failed');
    throw new AppError('service_unavailable', {
      message: 'The payment provider is not available right now. Please try again in a few minutes.',
      cause: err,
    });
  }
  const order = await insertPaymentOrder(
    deps.db.knex,
    {
      user_id: userId,
      provider: gateway.provider,
      provider_order_id: providerOrderId,
      plan_id: plan.id,
      offer_id: null,
      base_paise: price.basePaise,
      discount_paise: price.discountPaise,
      gst_paise: price.gstPaise,
      amount_paise: price.totalPaise,
      receipt,
    },
    now,
  );
  return {
    order,
    response: {
      id: order.provider_order_id,
      amount: order.amount_paise,
      currency: 'INR',
      plan: presentPlan(plan, price),
      testMode: gateway.testMode,
      keyId: gateway.keyId,
    },
  };
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
      const plan = await findPlanById(trx, order.plan_id);
      if (!plan) throw new Error(`payment order ${order.id} refers to missing plan ${order.plan_id}`);
      const payment = await insertPayment(
        trx,
        {
          user_id: userId,
          method: gateway.provider === 'test' ? 'test' : 'razorpay',
          payment_order_id: order.id,
          plan_id: plan.id,
          provider_payment_id: input.razorpay_payment_id,
          amount_paise: order.amount_paise,
          paid_at: now,
        },
        now,
      );
      const { subscription } = await activateSubscription({
        db: trx,
        userId,
        plan,
        paymentId: payment.id,
        source: 'payment',
        now,
      });
      // Seam for GST invoices (later issue): issue the invoice here, inside this transaction, from `payment`.
      const log = await recordAudit({
        db: trx,
        deps,
        entry: {
          type: 'payment',
          description: `Payment received (${gateway.testMode ? 'test mode' : 'Razorpay'}): ${plan.name}, subscription until ${new Date(subscription.ends_at).toISOString().slice(0, 10)}`,
          userId,
          data: {
            orderId: order.provider_order_id,
            paymentId: input.razorpay_payment_id,
            amountPaise: order.amount_paise,
            months: plan.months,
          },
        },
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
