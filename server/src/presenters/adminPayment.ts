// Money rows as admins (and, for their own requests, traders) see them. The screenshot is never inlined: the DTO
// carries the URL of the route that serves it with a fixed image type.
import { paiseToRupees } from '@optionpilot/engine/money';
import type { AdminPaymentDto, PaymentRequestDto } from '../contract';
import type { PaymentMethod, PaymentRequestRow, PlanRow, UserRow } from '../db';
import { toNumber } from '../db';
import { presentUserRef } from './adminUser';
import { iso, isoOrNull } from './time';

/** One row of the revenue relation (services/admin/revenue.ts) joined to its user and plan. */
export interface RevenueRow {
  kind: 'payment' | 'request';
  payment_id: number | null;
  request_id: number | null;
  user_id: number;
  method: PaymentMethod;
  status: AdminPaymentDto['status'];
  amount_paise: number | string;
  utr: string | null;
  plan_code: string | null;
  at: number | string;
  first_name: string;
  last_name: string;
  email: string;
}

const idOrNull = (v: number | string | null): number | null => (v === null ? null : toNumber(v));

/** RevenueRow → AdminPaymentDto. */
export function presentRevenueEntry(row: RevenueRow, isTest: boolean, refundedPaise = 0): AdminPaymentDto {
  const paymentId = idOrNull(row.payment_id);
  const requestId = idOrNull(row.request_id);
  const amountPaise = toNumber(row.amount_paise);
  return {
    key: row.kind === 'payment' ? `payment-${paymentId}` : `request-${requestId}`,
    kind: row.kind,
    paymentId,
    paymentRequestId: requestId,
    user: presentUserRef({
      id: toNumber(row.user_id),
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
    }),
    method: row.method,
    status: row.status,
    amount: paiseToRupees(amountPaise),
    amountPaise,
    utrNumber: row.utr,
    planCode: row.plan_code,
    at: iso(toNumber(row.at)),
    isTest,
    refundedPaise,
  };
}

/** The route that serves a request's screenshot. */
export function screenshotUrl(requestId: number): string {
  return `/api/payment-requests/${requestId}/screenshot`;
}

/** PaymentRequestRow + its user and plan → PaymentRequestDto. */
export function presentPaymentRequest(
  row: PaymentRequestRow,
  user: Pick<UserRow, 'id' | 'first_name' | 'last_name' | 'email'>,
  plan: Pick<PlanRow, 'code' | 'name' | 'months'> | null,
): PaymentRequestDto {
  return {
    id: row.id,
    amount: paiseToRupees(row.amount_paise),
    amountPaise: row.amount_paise,
    utrNumber: row.utr_number,
    method: row.method,
    status: row.status,
    createdAt: iso(row.created_at),
    approvedAt: isoOrNull(row.approved_at),
    reviewedAt: isoOrNull(row.reviewed_at),
    adminNotes: row.admin_notes,
    paymentScreenshot: row.screenshot_path === null ? null : screenshotUrl(row.id),
    plan: plan ? { code: plan.code, name: plan.name, months: plan.months } : null,
    user: presentUserRef(user),
  };
}
