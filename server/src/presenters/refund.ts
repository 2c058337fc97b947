// A refund as admins see it: no payer details beyond the ids, instants as ISO strings.
import type { RefundDto } from '../contract';
import type { RefundRow } from '../db';
import { iso } from './time';

export function presentRefund(row: RefundRow): RefundDto {
  return {
    id: row.id,
    paymentId: row.payment_id,
    amountPaise: row.amount_paise,
    status: row.status,
    providerRefundId: row.provider_refund_id,
    reason: row.reason,
    createdAt: iso(row.created_at),
  };
}
