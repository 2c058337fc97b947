// Plans, offers, strategies and contact messages as the admin pages see them (explicit fields only).
import type {
  AdminOfferDto,
  AdminPlanDto,
  AdminStrategyDto,
  ContactMessageDto,
  StrategyParameters,
} from '../contract';
import { strategyParametersSchema } from '../contract';
import type { ContactMessageRow, OfferRow, PlanRow, StrategyRow } from '../db';
import { priceOf } from '../payments/pricing';
import { presentPlan } from './plan';
import { iso, isoOrNull } from './time';

/** PlanRow → AdminPlanDto (prices before any offer). */
export function presentAdminPlan(plan: PlanRow): AdminPlanDto {
  return {
    ...presentPlan(plan, priceOf(plan)),
    id: plan.id,
    gstRateBp: plan.gst_rate_bp,
    active: plan.active,
    sortOrder: plan.sort_order,
  };
}

/** OfferRow (+ its plan's code) → AdminOfferDto; 1000 bp is 10%, unless the offer is a fixed amount. */
export function presentOffer(offer: OfferRow, planCode: string | null): AdminOfferDto {
  const fixed = offer.discount_paise !== null;
  return {
    id: offer.id,
    name: offer.name,
    code: offer.code,
    discountPercent: fixed ? null : offer.discount_bp / 100,
    discountAmountPaise: offer.discount_paise,
    planCode,
    validFrom: isoOrNull(offer.valid_from_at),
    validTill: isoOrNull(offer.valid_until_at),
    maxUsers: offer.max_users,
    usedCount: offer.used_count,
    active: offer.active,
    createdAt: iso(offer.created_at),
  };
}

/**
 * Parameters a strategy row had before they were stored in full (the seeded built-in one has only the spec's
 * stopLoss/target/maxLoss/orderType): the seeded admin-control defaults.
 */
export const STRATEGY_PARAMETER_DEFAULTS: StrategyParameters = {
  interval: 1,
  consecutiveCandles: 3,
  minMovement: 5,
  entryOffset: 2,
  stopLoss: 20,
  target: 40,
  maxLoss: 5000,
  orderType: 'SLM',
};

/** The stored parameters of a strategy, completed with the defaults and checked by the shared schema. */
export function strategyParameters(row: Pick<StrategyRow, 'params'>): StrategyParameters {
  let stored: unknown;
  try {
    stored = JSON.parse(row.params);
  } catch {
    stored = {};
  }
  const merged = {
    ...STRATEGY_PARAMETER_DEFAULTS,
    ...(typeof stored === 'object' && stored !== null ? stored : {}),
  };
  const parsed = strategyParametersSchema.safeParse(merged);
  return parsed.success ? parsed.data : STRATEGY_PARAMETER_DEFAULTS;
}

/** StrategyRow → AdminStrategyDto. */
export function presentStrategy(row: StrategyRow): AdminStrategyDto {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    kind: 'consecutive_breakout',
    sides: row.type,
    active: row.active,
    builtIn: row.built_in,
    parameters: strategyParameters(row),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** ContactMessageRow → ContactMessageDto. */
export function presentContactMessage(row: ContactMessageRow): ContactMessageDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    userId: row.user_id,
    createdAt: iso(row.created_at),
    readAt: isoOrNull(row.handled_at),
  };
}
