// What is on sale: plans (price, active), offers (discount %, validity, max users; the used count is the payment
// flow's) and the payment gateway's status. Every change is audited before → after.
import type { z } from 'zod';
import type {
  AdminOfferDto,
  AdminPlanDto,
  PaymentGatewayStatusDto,
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
  updateOffer,
  updatePlan,
  type OfferRow,
} from '../../db';
import { mask } from '../../crypto';
import { presentAdminPlan, presentOffer } from '../../presenters/adminCatalog';
import { isoOrNull } from '../../presenters/time';
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

/** The offer columns of an input (only the fields sent). */
async function offerColumns(deps: Pick<Deps, 'db'>, input: OfferInput): Promise<Partial<OfferRow>> {
  const out: Partial<OfferRow> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.code !== undefined) out.code = input.code;
  if (input.discountPercent !== undefined) out.discount_bp = Math.round(input.discountPercent * 100);
  if (input.planCode !== undefined) {
    if (input.planCode === null) out.plan_id = null;
    else {
      const plan = await findPlanByCode(deps.db.knex, input.planCode);
      if (!plan)
        throw new AppError('validation_failed', {
          message: `planCode: no plan "${input.planCode}"`,
          field: 'planCode',
        });
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

/** `POST /api/admin/offers` and `PATCH /api/admin/offers/:id` (id given). */
export async function saveOffer(props: {
  deps: CatalogDeps;
  adminId: number;
  id?: number;
  input: z.output<typeof offerSchema> | z.output<typeof patchOfferSchema>;
}): Promise<AdminOfferDto> {
  const { deps, adminId, id, input } = props;
  const now = deps.clock.now();
  const columns = await offerColumns(deps, input);
  if (id === undefined && columns.valid_until_at === undefined)
    columns.valid_until_at = now + OFFER_DEFAULT_DAYS * DAY_MS;
  const from = columns.valid_from_at;
  const till = columns.valid_until_at;
  if (from != null && till != null && till <= from)
    throw new AppError('validation_failed', {
      message: 'validTill: must be after validFrom',
      field: 'validTill',
    });
  try {
    const { row, log } = await deps.db.knex.transaction(async (trx) => {
      const before = id === undefined ? undefined : await findOfferById(trx, id);
      if (id !== undefined && !before)
        throw new AppError('not_found', { message: `No offer with id ${id}.` });
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
    if (isUniqueViolation(err))
      throw new AppError('validation_failed', {
        message: 'code: another offer already uses this code',
        field: 'code',
      });
    throw err;
  }
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
