// The current subscription as users see it, and the one function that extends it. Every route to money (checkout
// verification now; webhooks and approved UPI requests later) activates through `activateSubscription`, inside the
// transaction that records the payment, so a payment extends a subscription at most once.
import type { SubscriptionDto, SubscriptionStatus } from '../contract';
import {
  findPlanById,
  insertSubscription,
  listPlans,
  listSubscriptionsForUser,
  updateUser,
  findUserById,
  type Db,
  type PlanRow,
  type SubscriptionRow,
  type UserRow,
} from '../db';
import { presentPlan } from '../presenters/plan';
import { presentSubscription } from '../presenters/subscription';
import { addMonths, priceOf } from './pricing';

/** The stored status, except that an active subscription whose end date has passed is `expired`. */
export function effectiveSubscriptionStatus(
  user: Pick<UserRow, 'subscription_status' | 'subscription_end_at'>,
  now: number,
): SubscriptionStatus {
  if (
    user.subscription_status === 'active' &&
    user.subscription_end_at !== null &&
    user.subscription_end_at <= now
  )
    return 'expired';
  return user.subscription_status;
}

/** True when the user may be traded for: active and not past the end date. */
export function hasActiveSubscription(
  user: Pick<UserRow, 'subscription_status' | 'subscription_end_at'>,
  now: number,
): boolean {
  return effectiveSubscriptionStatus(user, now) === 'active';
}

/** The plan of the user's latest period, else the first plan on sale (what the user would buy). */
async function planForUser(db: Db, userId: number): Promise<PlanRow | undefined> {
  const [latest] = await listSubscriptionsForUser(db, userId);
  if (latest?.plan_id != null) {
    const plan = await findPlanById(db, latest.plan_id);
    if (plan) return plan;
  }
  const [onSale] = await listPlans(db, { activeOnly: true });
  return onSale;
}

/** `GET /api/user/subscription` for `user`. */
export async function subscriptionView(props: {
  db: Db;
  user: UserRow;
  now: number;
}): Promise<SubscriptionDto> {
  const { db, user, now } = props;
  const plan = await planForUser(db, user.id);
  return presentSubscription({
    status: effectiveSubscriptionStatus(user, now),
    plan: plan ? presentPlan(plan, priceOf(plan)) : null,
    startAt: user.subscription_start_at,
    endAt: user.subscription_end_at,
    now,
  });
}

export interface Activation {
  user: UserRow;
  subscription: SubscriptionRow;
}

/**
 * Extends the user's subscription by the plan's months from max(now, current end), sets the status active and
 * records the period (one per payment: a second activation for the same payment raises a unique violation).
 * Call inside the transaction that records the payment.
 */
export async function activateSubscription(props: {
  db: Db;
  userId: number;
  plan: PlanRow;
  paymentId: number | null;
  source: SubscriptionRow['source'];
  createdBy?: number | null;
  now: number;
}): Promise<Activation> {
  const { db, userId, plan, paymentId, source, now } = props;
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`activateSubscription: no user ${userId}`);
  const currentEnd = user.subscription_end_at;
  const continuing = currentEnd !== null && currentEnd > now;
  const startsAt = continuing ? currentEnd : now;
  const endsAt = addMonths(startsAt, plan.months);
  const subscription = await insertSubscription(
    db,
    {
      user_id: userId,
      plan_id: plan.id,
      starts_at: startsAt,
      ends_at: endsAt,
      source,
      payment_id: paymentId,
      created_by: props.createdBy ?? null,
    },
    now,
  );
  const updated = await updateUser(
    db,
    userId,
    {
      subscription_status: 'active',
      // A renewal keeps the running period's start; a new or lapsed subscription starts now.
      subscription_start_at:
        continuing && user.subscription_start_at !== null ? user.subscription_start_at : now,
      subscription_end_at: endsAt,
    },
    now,
  );
  if (!updated) throw new Error(`activateSubscription: user ${userId} vanished`);
  return { user: updated, subscription };
}
