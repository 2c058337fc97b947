import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { OfferRow, PlanRow } from '../rows';

const toPlan = rowMapper<PlanRow>(['active']);
const toOffer = rowMapper<OfferRow>(['active']);

export async function listPlans(db: Db, options: { activeOnly?: boolean } = {}): Promise<PlanRow[]> {
  const query = db('plans').select('*');
  if (options.activeOnly) query.where({ active: true });
  return (await query.orderBy(['sort_order', 'id'])).map(toPlan);
}

export async function findPlanByCode(db: Db, code: string): Promise<PlanRow | undefined> {
  const row: unknown = await db('plans').where({ code }).first();
  return row ? toPlan(row) : undefined;
}

export async function findPlanById(db: Db, id: number): Promise<PlanRow | undefined> {
  const row: unknown = await db('plans').where({ id }).first();
  return row ? toPlan(row) : undefined;
}

/** The plan `id` names, else the first plan on sale (what a payment received outside checkout buys). */
export async function planOrFirstOnSale(db: Db, id: number | null): Promise<PlanRow> {
  const named = id === null ? undefined : await findPlanById(db, id);
  const plan = named ?? (await listPlans(db, { activeOnly: true }))[0];
  if (!plan) throw new Error('no plan is on sale to record the payment against');
  return plan;
}

export type NewPlan = Pick<PlanRow, 'code' | 'name' | 'price_paise' | 'months'> &
  Partial<Pick<PlanRow, 'gst_rate_bp' | 'active' | 'sort_order'>>;

export async function insertPlan(db: Db, plan: NewPlan, now = Date.now()): Promise<PlanRow> {
  const [row] = await db('plans')
    .insert({ ...plan, created_at: now, updated_at: now })
    .returning('*');
  return toPlan(row);
}

export async function updatePlan(
  db: Db,
  id: number,
  patch: Partial<Omit<PlanRow, 'id' | 'created_at' | 'updated_at'>>,
  now = Date.now(),
): Promise<PlanRow | undefined> {
  const [row] = await db('plans')
    .where({ id })
    .update({ ...patch, updated_at: now })
    .returning('*');
  return row ? toPlan(row) : undefined;
}

export type NewOffer = Pick<OfferRow, 'name'> &
  Partial<Omit<OfferRow, 'id' | 'name' | 'used_count' | 'created_at' | 'updated_at'>>;

/** Codes are case-insensitive: stored upper-case (a unique index on upper(code) backs it). */
const upperCode = <T extends { code?: string | null }>(row: T): T =>
  row.code ? { ...row, code: row.code.toUpperCase() } : row;

export async function insertOffer(db: Db, offer: NewOffer, now = Date.now()): Promise<OfferRow> {
  const [row] = await db('offers')
    .insert({ ...upperCode(offer), created_at: now, updated_at: now })
    .returning('*');
  return toOffer(row);
}

export async function listOffers(db: Db): Promise<OfferRow[]> {
  return (await db('offers').orderBy('id', 'desc')).map(toOffer);
}

export async function findOfferById(db: Db, id: number): Promise<OfferRow | undefined> {
  const row: unknown = await db('offers').where({ id }).first();
  return row ? toOffer(row) : undefined;
}

export async function findOfferByCode(db: Db, code: string): Promise<OfferRow | undefined> {
  const row: unknown = await db('offers').whereRaw('upper(code) = ?', [code.toUpperCase()]).first();
  return row ? toOffer(row) : undefined;
}

export async function updateOffer(
  db: Db,
  id: number,
  patch: Partial<Omit<OfferRow, 'id' | 'created_at' | 'updated_at'>>,
  now = Date.now(),
): Promise<OfferRow | undefined> {
  const [row] = await db('offers')
    .where({ id })
    .update({ ...upperCode(patch), updated_at: now })
    .returning('*');
  return row ? toOffer(row) : undefined;
}

/**
 * Counts one use of an offer if it is active, within its validity window and below `max_users`; false otherwise.
 * A single conditional UPDATE, so two buyers cannot both take the last place.
 */
export async function claimOfferUse(db: Db, id: number, now = Date.now()): Promise<boolean> {
  const changed = await db('offers')
    .where({ id, active: true })
    .where((w) => w.whereNull('valid_from_at').orWhere('valid_from_at', '<=', now))
    .where((w) => w.whereNull('valid_until_at').orWhere('valid_until_at', '>', now))
    .where((w) => w.whereNull('max_users').orWhereRaw('used_count < max_users'))
    .update({ used_count: db.raw('used_count + 1'), updated_at: now });
  return changed > 0;
}
