// Offer codes at checkout. An offer's `max_users` is a promise to the operator: never more discounted payments than
// that. The use is counted (`used_count`) when a payment is recorded, but the discount is granted earlier, when the
// order is priced, so an order also *holds* a use while it can still be paid: a checkout is refused when the paid
// uses plus the other buyers' unpaid orders of the last OFFER_HOLD_MS already fill the offer. The check and the
// order's insert share one transaction that first locks the offer's row, so concurrent checkouts cannot both take
// the last use (on SQLite the write lock, on PostgreSQL the row lock).
import { AppError } from '../errors';
import { findOfferByCode, type Db, type OfferRow, type PlanRow } from '../db';
import { MIN_TAXABLE_PAISE, offerDiscountPaise } from './pricing';

/** How long an unpaid order keeps its offer use: longer than any checkout a buyer completes. */
export const OFFER_HOLD_MS = 30 * 60_000;

function refused(message: string): AppError {
  return new AppError('validation_failed', { message: `offerCode: ${message}`, field: 'offerCode' });
}

/** Whether `offer` can be applied to `plan` at `now`, apart from its use count. */
export function offerProblem(
  offer: OfferRow,
  plan: Pick<PlanRow, 'id' | 'price_paise'>,
  now: number,
): string | null {
  if (!offer.active) return 'this offer is no longer available';
  if (offer.valid_from_at !== null && now < offer.valid_from_at) return 'this offer has not started yet';
  if (offer.valid_until_at !== null && now >= offer.valid_until_at) return 'this offer has expired';
  if (offer.plan_id !== null && offer.plan_id !== plan.id) return 'this offer is not valid for this plan';
  // A fixed discount may have been set for a dearer plan than this one (or the price fell since).
  if (plan.price_paise - offerDiscountPaise(offer, plan.price_paise) < MIN_TAXABLE_PAISE)
    return 'this offer is worth more than this plan';
  return null;
}

/** The offer named by `code` if it applies to `plan` now; a 400 naming `offerCode` otherwise. */
export async function offerForCheckout(
  db: Db,
  code: string,
  plan: Pick<PlanRow, 'id' | 'price_paise'>,
  now: number,
): Promise<OfferRow> {
  const offer = await findOfferByCode(db, code);
  if (!offer) throw refused(`no offer "${code}"`);
  const problem = offerProblem(offer, plan, now);
  if (problem) throw refused(problem);
  if (offer.max_users !== null && offer.used_count >= offer.max_users)
    throw refused('this offer is fully used');
  return offer;
}

/**
 * Inside the transaction that inserts `userId`'s order: locks the offer's row and refuses when its paid uses and the
 * other buyers' live unpaid orders leave no use for this one. A buyer's own earlier unpaid orders hold one use
 * together with this one, so retrying a checkout never counts twice.
 */
export async function holdOfferUse(trx: Db, offer: OfferRow, userId: number, now: number): Promise<void> {
  await trx('offers')
    .where({ id: offer.id })
    .update({ updated_at: trx.raw('updated_at') });
  const fresh = await trx('offers')
    .where({ id: offer.id })
    .first<{ used_count: number; max_users: number | null }>('used_count', 'max_users');
  if (!fresh || fresh.max_users === null) return;
  const held = await trx('payment_orders')
    .where({ offer_id: offer.id, status: 'created' })
    .where('created_at', '>', now - OFFER_HOLD_MS)
    .whereNot({ user_id: userId })
    .countDistinct({ n: 'user_id' })
    .first<{ n: number | string }>();
  if (Number(fresh.used_count) + Number(held?.n ?? 0) >= Number(fresh.max_users)) {
    throw refused('this offer is fully used');
  }
}
