import type { PlanDto } from '../contract';
import type { PlanRow } from '../db';
import type { Price } from '../payments/pricing';

/** PlanRow + its computed price → PlanDto (paise). */
export function presentPlan(plan: PlanRow, price: Price): PlanDto {
  return {
    code: plan.code,
    name: plan.name,
    months: plan.months,
    pricePaise: price.basePaise - price.discountPaise,
    gstPaise: price.gstPaise,
    totalPaise: price.totalPaise,
  };
}
