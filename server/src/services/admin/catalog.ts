// What is on sale: plans (price, active), offers (code, a percentage or fixed discount, validity, redemption cap;
// the used count and the redemptions are the payment flow's) and the payment gateway's status. Every change is
// audited before → after.
import type { z } from 'zod';
import type {
  AdminOfferDto,
  AdminPlanDto,
  OfferRedemptionDto,
  OfferRedemptionsResponse,
  PaymentGatewayStatusDto,
  offerRedemptionsQuerySchema,
  offerSchema,
  patchOfferSchema,
  patchPlanSchema,
} from '../../contract';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import {
  countOf,
  findOfferById,
  findPlanByCode,
  findPlanById,
  insertOffer,
  isUniqueViolation,
  listOffers,
  listPlans,
  toNumber,
  updateOffer,
  updatePlan,
  type Db,
  type OfferRow,
  type PlanRow,
} from '../../db';
import { mask } from '../../crypto';
import { presentAdminPlan, presentOffer } from '../../presenters/adminCatalog';
import { iso, isoOrNull } from '../../presenters/time';
import { MIN_TAXABLE_PAISE } from '../../payments/pricing';
import { pageOf } from './listing';
import { announceAudit, recordAudit } from '../audit';

type CatalogDeps = Pick<Deps, 'db' | 'clock' | 'realtime'>;
const DAY_MS = 86_400_000;
/** spec §9: a new offer is valid for 30 days unless told otherwise */
export const OFFER_DEFAULT_DAYS = 30;

export async function listAdminPlans(deps: Pick<Deps, 'db'>): Promise<AdminPlanDto[]> {
  return (await listPlans(deps.db.knex)).map(presentAdminPlan);
}

/** `PATCH /api/admin/plans/:code` */
export async function patchPlan(props: {
  deps: CatalogDeps;
  adminId: number;
  code: string;
  input: z.output<typeof patchPlanSchema>;
}): Promise<AdminPlanDto> {
  const { deps, adminId, code, input } = props;
  const now = deps.clock.now();
  const { row, log } = await deps.db.knex.transaction(async (trx) => {
    const before = await findPlanByCode(trx, code);
    if (!before) throw new AppError('not_found', { message: `No plan "${code}".` });
    const row = await updatePlan(
      trx,
      before.id,
      {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.pricePaise !== undefined ? { price_paise: input.pricePaise } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(input.sortOrder !== undefined ? { sort_order: input.sortOrder } : {}),
      },
      now,
    );
    if (!row) throw new AppError('not_found');
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `Plan ${code} changed`,
        actorId: adminId,
        data: {
          beforeName: before.name,
          afterName: row.name,
          beforePricePaise: before.price_paise,
          afterPricePaise: row.price_paise,
          beforeActive: before.active,
          afterActive: row.active,
        },
      },
    });
    return { row, log };
  });
  announceAudit({ deps, rows: [log] });
  return presentAdminPlan(row);
}

async function offerDto(deps: Pick<Deps, 'db'>, offer: OfferRow): Promise<AdminOfferDto> {
  const plan = offer.plan_id === null ? undefined : await findPlanById(deps.db.knex, offer.plan_id);
  return presentOffer(offer, plan?.code ?? null);
}

export async function listAdminOffers(deps: Pick<Deps, 'db'>): Promise<AdminOfferDto[]> {
  const out: AdminOfferDto[] = [];
  for (const offer of await listOffers(deps.db.knex)) out.push(await offerDto(deps, offer));
  return out;
}

type OfferInput = Partial<z.output<typeof offerSchema>>;

function refused(field: string, message: string): AppError {
  return new AppError('validation_failed', { message: `${field}: ${message}`, field });
}

/** The offer columns of an input (only the fields sent; one kind of discount replaces the other). */
async function offerColumns(db: Db, input: OfferInput): Promise<Partial<OfferRow>> {
  const out: Partial<OfferRow> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.code !== undefined) out.code = input.code;
  if (input.discountPercent !== undefined) {
    out.discount_bp = Math.round(input.discountPercent * 100);
    out.discount_paise = null;
  }
  if (input.discountAmountPaise !== undefined) out.discount_paise = input.discountAmountPaise;
  if (input.planCode !== undefined) {
    if (input.planCode === null) out.plan_id = null;
    else {
      const plan = await findPlanByCode(db, input.planCode);
      if (!plan) throw refused('planCode', `no plan "${input.planCode}"`);
      out.plan_id = plan.id;
    }
  }
  if (input.validFrom !== undefined)
    out.valid_from_at = input.validFrom === null ? null : Date.parse(input.validFrom);
  if (input.validTill !== undefined)
    out.valid_until_at = input.validTill === null ? null : Date.parse(input.validTill);
  if (input.maxUsers !== undefined) out.max_users = input.maxUsers;
  if (input.active !== undefined) out.active = input.active;
  return out;
}

/** The rules that span fields, checked on the offer as it will be saved (the stored row merged with the edit). */
async function checkOffer(db: Db, offer: Omit<OfferRow, 'id' | 'created_at' | 'updated_at'>): Promise<void> {
  const from = offer.valid_from_at;
  const till = offer.valid_until_at;
  if (from !== null && till !== null && till <= from) throw refused('validTill', 'must be after validFrom');
  if (offer.max_users !== null && offer.max_users < offer.used_count)
    throw refused('maxUsers', `${offer.used_count} redemptions already counted; the cap cannot be lower`);
  if (offer.discount_paise !== null) {
    // A fixed discount must leave something to pay on the plan it is for, or on every plan on sale.
    const plans =
      offer.plan_id !== null
        ? [await findPlanById(db, offer.plan_id)].filter((p) => p !== undefined)
        : await listPlans(db, { activeOnly: true });
    const cheapest = plans.reduce<PlanRow | undefined>(
      (min, p) => (min === undefined || p.price_paise < min.price_paise ? p : min),
      undefined,
    );
    if (cheapest && cheapest.price_paise - offer.discount_paise < MIN_TAXABLE_PAISE)
      throw refused(
        'discountAmountPaise',
        `must leave at least ₹1 of the ${cheapest.name} plan's price (${cheapest.price_paise} paise)`,
      );
  }
}

/** `POST /api/admin/offers` and `PATCH /api/admin/offers/:id` (id given). */
export async function saveOffer(props: {
  deps: CatalogDeps;
  adminId: number;
  id?: number;
  input: z.output<typeof offerSchema> | z.output<typeof patchOfferSchema>;
}): Promise<AdminOfferDto> {
  const { deps, adminId, id, input } = props;
  const now = deps.clock.now();
  const columns = await offerColumns(deps.db.knex, input);
  if (id === undefined && columns.valid_until_at === undefined)
    columns.valid_until_at = now + OFFER_DEFAULT_DAYS * DAY_MS;
  try {
    const { row, log } = await deps.db.knex.transaction(async (trx) => {
      const before = id === undefined ? undefined : await findOfferById(trx, id);
      if (id !== undefined && !before)
        throw new AppError('not_found', { message: `No offer with id ${id}.` });
      await checkOffer(trx, {
        ...NEW_OFFER,
        ...(before ?? {}),
        ...columns,
      });
      const row =
        id === undefined
          ? await insertOffer(trx, { name: columns.name ?? '', ...columns }, now)
          : await updateOffer(trx, id, columns, now);
      if (!row) throw new AppError('not_found');
      const log = await recordAudit({
        db: trx,
        deps,
        entry: {
          type: 'admin',
          description: `Offer "${row.name}" ${before ? 'changed' : 'created'}`,
          actorId: adminId,
          data: {
            offerId: row.id,
            before: before ? JSON.stringify(presentOffer(before, null)) : null,
            after: JSON.stringify(presentOffer(row, null)),
          },
        },
      });
      return { row, log };
    });
    announceAudit({ deps, rows: [log] });
    return await offerDto(deps, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw refused('code', 'another offer already uses this code (in any case)');
    throw err;
  }
}

/** What a new offer's row holds before the admin's fields (the migration's column defaults). */
const NEW_OFFER: Omit<OfferRow, 'id' | 'created_at' | 'updated_at'> = {
  name: '',
  code: null,
  discount_bp: 1000,
  discount_paise: null,
  plan_id: null,
  valid_from_at: null,
  valid_until_at: null,
  max_users: 50,
  used_count: 0,
  active: true,
};

/** `GET /api/admin/offers/:id/redemptions`: the payments whose use of the offer was counted, newest first. */
export async function listOfferRedemptions(props: {
  deps: Pick<Deps, 'db'>;
  id: number;
  query: z.output<typeof offerRedemptionsQuerySchema>;
}): Promise<OfferRedemptionsResponse> {
  const { deps, id, query } = props;
  const db = deps.db.knex;
  const offer = await findOfferById(db, id);
  if (!offer) throw new AppError('not_found', { message: `No offer with id ${id}.` });
  const builder = db('payments')
    .join('users', 'users.id', 'payments.user_id')
    .leftJoin('invoices', 'invoices.payment_id', 'payments.id')
    .where('payments.offer_id', id)
    .select(
      'payments.id as payment_id',
      'payments.user_id',
      'payments.paid_at',
      'payments.amount_paise',
      'users.first_name',
      'users.last_name',
      'users.email',
      'invoices.number as invoice_number',
      'invoices.discount_paise as discount_paise',
    );
  const page = await pageOf({
    builder,
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'payments.paid_at', order: 'desc' },
      { column: 'payments.id', order: 'desc' },
    ],
    map: (raw): OfferRedemptionDto => ({
      paymentId: Number(raw.payment_id),
      user: {
        id: Number(raw.user_id),
        firstName: String(raw.first_name),
        lastName: String(raw.last_name),
        email: String(raw.email),
      },
      paidAt: iso(toNumber(raw.paid_at)),
      amountPaise: toNumber(raw.amount_paise),
      discountPaise: toNumber(raw.discount_paise),
      invoiceNumber: raw.invoice_number === null ? null : String(raw.invoice_number),
    }),
  });
  return { ...page, offer: await offerDto(deps, offer) };
}

/** `GET /api/admin/payment-gateway` */
export async function gatewayStatus(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
): Promise<PaymentGatewayStatusDto> {
  const db = deps.db.knex;
  const razorpay = deps.config.razorpay;
  const last = (await db('webhook_events')
    .orderBy('received_at', 'desc')
    .first('received_at', 'event_type')) as { received_at: number; event_type: string } | undefined;
  const recent = countOf(
    await db('webhook_events')
      .where('received_at', '>=', deps.clock.now() - DAY_MS)
      .count({ n: '*' }),
  );
  return {
    provider: 'razorpay',
    // No keys is the server's own test mode; rzp_test_ keys are Razorpay's test mode.
    mode: razorpay && !razorpay.keyId.startsWith('rzp_test_') ? 'live' : 'test',
    keyIdMasked: razorpay ? mask(razorpay.keyId) : null,
    webhookSecretConfigured: Boolean(razorpay?.webhookSecret),
    lastWebhookAt: isoOrNull(last ? Number(last.received_at) : null),
    lastWebhookType: last?.event_type ?? null,
    webhooksLast24h: recent,
  };
}
