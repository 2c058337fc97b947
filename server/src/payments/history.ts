// A trader's own payment history for Manage Subscription: every recorded payment, newest first, with the plan it
// bought and the GST invoice it produced. One query; amounts in paise, instants in epoch milliseconds (UTC).
import type { PaymentHistoryItemDto } from '../contract';
import type { Db, PaymentMethod, PaymentStatus } from '../db';

interface HistoryRow {
  id: number;
  method: PaymentMethod;
  amount_paise: number | string;
  status: PaymentStatus;
  paid_at: number | string;
  plan_name: string | null;
  invoice_id: number | null;
  invoice_number: string | null;
}

/** The user's payments, newest first (at most `limit`). */
export async function paymentHistory(db: Db, userId: number, limit = 100): Promise<PaymentHistoryItemDto[]> {
  const rows = (await db('payments as p')
    .leftJoin('plans as pl', 'pl.id', 'p.plan_id')
    .leftJoin('invoices as i', 'i.payment_id', 'p.id')
    .where('p.user_id', userId)
    .orderBy([
      { column: 'p.paid_at', order: 'desc' },
      { column: 'p.id', order: 'desc' },
    ])
    .limit(limit)
    .select(
      'p.id',
      'p.method',
      'p.amount_paise',
      'p.status',
      'p.paid_at',
      'pl.name as plan_name',
      'i.id as invoice_id',
      'i.number as invoice_number',
    )) as HistoryRow[];
  return rows.map((row) => ({
    id: row.id,
    paidAt: Number(row.paid_at),
    method: row.method,
    planName: row.plan_name,
    amountPaise: Number(row.amount_paise),
    status: row.status,
    invoice:
      row.invoice_id !== null && row.invoice_number !== null
        ? { id: Number(row.invoice_id), number: row.invoice_number }
        : null,
  }));
}
