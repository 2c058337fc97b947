// Refunds and GST credit notes. The sum of a payment's refunds that are pending or processed never passes the
// payment; callers check it inside the transaction that inserts the refund, after locking the payment's row.
import type { Db } from '../knex';
import { rowMapper, toNumber } from '../normalise';
import type { CreditNoteRow, RefundRow, RefundStatus } from '../rows';

const toRefund = rowMapper<RefundRow>();
const toCreditNote = rowMapper<CreditNoteRow>();

export type NewRefund = Pick<RefundRow, 'payment_id' | 'user_id' | 'amount_paise' | 'status' | 'reason'> &
  Partial<Pick<RefundRow, 'provider_refund_id' | 'created_by'>>;

export async function insertRefund(db: Db, refund: NewRefund, now = Date.now()): Promise<RefundRow> {
  const [row] = await db('refunds')
    .insert({ ...refund, created_at: now, updated_at: now })
    .returning('*');
  return toRefund(row);
}

/** Moves a refund on from `pending`; false when it had already left it (a webhook got there first). */
export async function settleRefund(
  db: Db,
  id: number,
  change: { status: Exclude<RefundStatus, 'pending'>; providerRefundId?: string | null },
  now = Date.now(),
): Promise<boolean> {
  const changed = await db('refunds')
    .where({ id, status: 'pending' })
    .update({
      status: change.status,
      ...(change.providerRefundId !== undefined ? { provider_refund_id: change.providerRefundId } : {}),
      updated_at: now,
    });
  return changed > 0;
}

export async function findRefund(db: Db, id: number): Promise<RefundRow | undefined> {
  const row: unknown = await db('refunds').where({ id }).first();
  return row ? toRefund(row) : undefined;
}

/** Paise of `paymentId` refunded or being refunded (pending + processed; `processedOnly`: returned for sure). */
export async function refundedPaise(db: Db, paymentId: number, processedOnly = false): Promise<number> {
  const row = (await db('refunds')
    .where({ payment_id: paymentId })
    .whereIn('status', processedOnly ? ['processed'] : ['pending', 'processed'])
    .sum({ total: 'amount_paise' })
    .first()) as { total: number | string | null } | undefined;
  return row?.total === null || row?.total === undefined ? 0 : toNumber(row.total);
}

/** The next credit-note sequence of a financial year, atomically (call inside the note's transaction). */
export async function nextCreditNoteSequence(
  db: Db,
  financialYear: string,
  now = Date.now(),
): Promise<number> {
  const [row] = (await db('credit_note_counters')
    .insert({ financial_year: financialYear, last_number: 1, updated_at: now })
    .onConflict('financial_year')
    .merge({ last_number: db.raw('credit_note_counters.last_number + 1'), updated_at: now })
    .returning('last_number')) as Array<{ last_number: number | string }>;
  return Number(row?.last_number);
}

export type NewCreditNote = Omit<CreditNoteRow, 'id' | 'created_at'>;

export async function insertCreditNote(
  db: Db,
  note: NewCreditNote,
  now = Date.now(),
): Promise<CreditNoteRow> {
  const [row] = await db('credit_notes')
    .insert({ ...note, created_at: now })
    .returning('*');
  return toCreditNote(row);
}

export async function findCreditNote(db: Db, id: number): Promise<CreditNoteRow | undefined> {
  const row: unknown = await db('credit_notes').where({ id }).first();
  return row ? toCreditNote(row) : undefined;
}
