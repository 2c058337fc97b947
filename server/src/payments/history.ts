// A trader's own payment history for Manage Subscription: every recorded payment, newest first, with the plan it
// bought, the GST invoice it produced and the refunds and credit notes against it. Amounts in paise, instants in
// epoch milliseconds (UTC).
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

/** The user's payments, newest first (at most `limit`), with their refunds and credit notes. */
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
  const notes = (await db('credit_notes as c')
    .join('refunds as r', 'r.id', 'c.refund_id')
    .where('c.user_id', userId)
    .orderBy('c.id')
    .select('r.payment_id', 'c.id', 'c.number', 'c.total_paise')) as Array<{
    payment_id: number;
    id: number;
    number: string;
    total_paise: number | string;
  }>;
  const notesByPayment = new Map<number, PaymentHistoryItemDto['creditNotes']>();
  for (const note of notes) {
    const list = notesByPayment.get(Number(note.payment_id)) ?? [];
    list.push({ id: Number(note.id), number: note.number, totalPaise: Number(note.total_paise) });
    notesByPayment.set(Number(note.payment_id), list);
  }
  const refunded = (await db('refunds')
    .where({ user_id: userId, status: 'processed' })
    .groupBy('payment_id')
    .select('payment_id')
    .sum({ total: 'amount_paise' })) as Array<{ payment_id: number; total: number | string }>;
  const refundedByPayment = new Map(refunded.map((r) => [Number(r.payment_id), Number(r.total)]));
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
    refundedPaise: refundedByPayment.get(row.id) ?? 0,
    creditNotes: notesByPayment.get(row.id) ?? [],
  }));
}
