// The trader's half of a manual UPI payment: what to pay (the plan's price with GST, computed here, never taken
// from the browser), the request with its 12-digit UTR and optional screenshot, and the trader's own requests.
import type { z } from 'zod';
import type { PaymentRequestDto, UpiPaymentInfoDto, upiRequestSchema } from '../contract';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import {
  findPaymentRequest,
  findPlanByCode,
  getUpiSettings,
  insertPaymentRequest,
  isUniqueViolation,
  listPaymentRequests,
  listPlans,
  type PaymentRequestRow,
  type PlanRow,
} from '../db';
import { recordAdminNotice } from '../notifications/outbox';
import { priceOf } from '../payments/pricing';
import { presentPlan } from '../presenters/plan';
import { presentRequests } from './admin/paymentRequests';
import { presentUpiSettings } from './admin/upiSettings';
import { imageFromDataUrl, removeUpload, storeUpload, type CheckedImage } from './admin/images';
import { announceAudit, recordAudit } from './audit';

export const SCREENSHOT_FOLDER = 'payment-requests';

type UpiDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'realtime'>;

async function planOnSale(deps: UpiDeps, planCode: string | undefined): Promise<PlanRow> {
  const plan = planCode
    ? await findPlanByCode(deps.db.knex, planCode)
    : (await listPlans(deps.db.knex, { activeOnly: true }))[0];
  if (!plan || !plan.active)
    throw new AppError('validation_failed', {
      message: planCode ? `planCode: no plan "${planCode}" is on sale` : 'No plan is on sale at the moment.',
      field: 'planCode',
    });
  return plan;
}

/** `GET /api/payment/upi-request`: where and how much to pay, and the caller's requests. */
export async function upiPaymentInfo(props: {
  deps: UpiDeps;
  userId: number;
  planCode?: string;
}): Promise<UpiPaymentInfoDto> {
  const { deps, userId } = props;
  const plan = await planOnSale(deps, props.planCode);
  const price = priceOf(plan);
  const rows = await listPaymentRequests(deps.db.knex, { userId, limit: 20 });
  const requests = await presentRequests(deps.db.knex, rows);
  return {
    upi: presentUpiSettings(await getUpiSettings(deps.db.knex)),
    plan: presentPlan(plan, price),
    amountPaise: price.totalPaise,
    requests,
    pending: rows.some((r) => r.status === 'pending'),
  };
}

/** Refuses a UTR already quoted by any request or recorded on any payment. */
async function assertUtrUnused(deps: UpiDeps, utr: string): Promise<void> {
  const db = deps.db.knex;
  const used =
    (await db('payment_requests').where({ utr_number: utr }).first('id')) ??
    (await db('payments').where({ utr }).first('id'));
  if (used) throw new AppError('utr_used', { field: 'utrNumber' });
}

/** `POST /api/payment/upi-request`: one pending request per user; a UTR can be used once. */
export async function createUpiRequest(props: {
  deps: UpiDeps;
  userId: number;
  input: z.output<typeof upiRequestSchema>;
}): Promise<PaymentRequestDto> {
  const { deps, userId, input } = props;
  const db = deps.db.knex;
  const plan = await planOnSale(deps, input.planCode);
  const price = priceOf(plan);
  const upi = await getUpiSettings(db);
  if (!upi)
    throw new AppError('service_unavailable', {
      message: 'UPI payments are not set up yet. Please pay by card.',
    });
  if ((await listPaymentRequests(db, { userId, status: 'pending', limit: 1 })).length > 0)
    throw new AppError('payment_request_pending');
  await assertUtrUnused(deps, input.utrNumber);
  const screenshot: CheckedImage | undefined =
    input.paymentScreenshot === undefined
      ? undefined
      : imageFromDataUrl(input.paymentScreenshot, 'paymentScreenshot');
  const path = screenshot ? await storeUpload(deps.config.dataDir, SCREENSHOT_FOLDER, screenshot) : null;
  const now = deps.clock.now();
  let row: PaymentRequestRow;
  try {
    const result = await db.transaction(async (trx) => {
      const row = await insertPaymentRequest(
        trx,
        {
          user_id: userId,
          plan_id: plan.id,
          method: 'upi',
          utr_number: input.utrNumber,
          amount_paise: price.totalPaise,
          screenshot_path: path,
        },
        now,
      );
      const log = await recordAudit({
        db: trx,
        deps,
        entry: {
          type: 'payment',
          description: `UPI payment submitted for review: UTR ${input.utrNumber}, ${plan.name}`,
          userId,
          actorId: userId,
          data: { requestId: row.id, amountPaise: price.totalPaise },
        },
      });
      const payer = (await trx('users').where({ id: userId }).first('email')) as
        { email: string } | undefined;
      await recordAdminNotice(
        trx,
        {
          event: 'upi_review',
          factKey: String(row.id),
          payload: {
            requestId: row.id,
            userId,
            userEmail: payer?.email ?? null,
            planName: plan.name,
            amountPaise: price.totalPaise,
            utr: input.utrNumber,
          },
        },
        now,
      );
      return { row, log };
    });
    row = result.row;
    announceAudit({ deps, rows: [result.log] });
  } catch (err) {
    if (path) await removeUpload(deps.config.dataDir, path);
    if (!isUniqueViolation(err)) throw err;
    // Lost a race: either the same UTR or a second pending request of this user went in first.
    const sameUtr = await db('payment_requests').where({ utr_number: input.utrNumber }).first('id');
    throw new AppError(
      sameUtr ? 'utr_used' : 'payment_request_pending',
      sameUtr ? { field: 'utrNumber' } : {},
    );
  }
  const [dto] = await presentRequests(db, [row]);
  if (!dto) throw new AppError('not_found');
  return dto;
}

/** `PUT /api/payment-requests/:id/screenshot`: the owner attaches (or replaces) the screenshot while pending. */
export async function attachScreenshot(props: {
  deps: UpiDeps;
  userId: number;
  id: number;
  image: CheckedImage;
}): Promise<PaymentRequestDto> {
  const { deps, userId, id, image } = props;
  const db = deps.db.knex;
  const existing = await findPaymentRequest(db, id);
  if (!existing || existing.user_id !== userId)
    throw new AppError('not_found', { message: `No payment request with id ${id}.` });
  if (existing.status !== 'pending') throw new AppError('payment_request_reviewed');
  const path = await storeUpload(deps.config.dataDir, SCREENSHOT_FOLDER, image);
  const updated = await db('payment_requests')
    .where({ id, status: 'pending' })
    .update({ screenshot_path: path });
  if (updated === 0) {
    await removeUpload(deps.config.dataDir, path);
    throw new AppError('payment_request_reviewed');
  }
  if (existing.screenshot_path) await removeUpload(deps.config.dataDir, existing.screenshot_path);
  const row = await findPaymentRequest(db, id);
  const [dto] = row ? await presentRequests(db, [row]) : [];
  if (!dto) throw new AppError('not_found');
  return dto;
}
