// The plans on sale (`GET /api/plans`), as the server prices them: the landing page's figures and the payment
// dialog's choice follow an admin's change to a plan without a new web build. Until the answer arrives (or if it
// fails) the spec's monthly plan stands in, so the page never shows an empty price.
import { useEffect, useState } from 'react';
import type { PlanDto, PlansResponse } from '@optionpilot/server/contract';
import { api } from '../../api/client';
import { priceBreakdown } from '../landing/pricing';

/** The spec's plan (§9: ₹4,999 a month + 18% GST), shown until the server's list is known. */
export const SPEC_MONTHLY_PLAN: PlanDto = {
  code: 'monthly',
  name: 'Professional Monthly',
  months: 1,
  pricePaise: priceBreakdown().basePaise,
  gstPaise: priceBreakdown().gstPaise,
  totalPaise: priceBreakdown().totalPaise,
};

export const plansApi = {
  list: (signal?: AbortSignal) => api.get<PlansResponse>('/api/plans', signal ? { signal } : {}),
};

/** "month", "3 months", "year": the billing period of a plan of `months` months. */
export function periodOf(months: number): string {
  if (months === 1) return 'month';
  if (months === 12) return 'year';
  return `${months} months`;
}

/**
 * The plans on sale, first the default; the spec's monthly plan until the server answers. Asks only while
 * `wanted` (a closed payment dialog sends no request), and again each time it becomes wanted, so a dialog opened
 * after an admin's change shows the new prices.
 */
export function usePlansOnSale(wanted = true): readonly PlanDto[] {
  const [plans, setPlans] = useState<readonly PlanDto[]>([SPEC_MONTHLY_PLAN]);
  useEffect(() => {
    if (!wanted) return undefined;
    const controller = new AbortController();
    plansApi
      .list(controller.signal)
      .then((body) => {
        if (body.plans.length > 0) setPlans(body.plans);
      })
      // Prices stay at the spec's figures; checkout asks the server again anyway.
      .catch(() => undefined);
    return () => controller.abort();
  }, [wanted]);
  return plans;
}
