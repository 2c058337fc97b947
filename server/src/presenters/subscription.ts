import { paiseToRupees } from '@optionpilot/engine/money';
import type { PlanDto, SubscriptionDto, SubscriptionStatus } from '../contract';
import { isoOrNull } from './time';

const DAY_MS = 86_400_000;

/** The subscription card's view: real status, current period, the plan's price incl. GST and whole days left. */
export function presentSubscription(props: {
  status: SubscriptionStatus;
  plan: PlanDto | null;
  startAt: number | null;
  endAt: number | null;
  now: number;
}): SubscriptionDto {
  const { status, plan, startAt, endAt, now } = props;
  const amountPaise = plan?.totalPaise ?? 0;
  return {
    status,
    plan,
    startDate: isoOrNull(startAt),
    endDate: isoOrNull(endAt),
    amount: paiseToRupees(amountPaise),
    amountPaise,
    daysLeft: endAt === null ? null : Math.max(0, Math.ceil((endAt - now) / DAY_MS)),
  };
}
