import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { InvoiceRow } from '../rows';

const toInvoice = rowMapper<InvoiceRow>();

const IST_OFFSET_MS = 330 * 60_000;

/** The Indian financial year (April–March, IST) containing `at`, as `'2026-27'`. */
export function financialYearOf(at: number): string {
  const ist = new Date(at + IST_OFFSET_MS);
  const startYear = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  return `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;
}

/** `OP/26-27/00042`: prefix, short financial year and the sequence; throws beyond the 16-character GST limit. */
export function formatInvoiceNumber(prefix: string, financialYear: string, sequence: number): string {
  const short = `${financialYear.slice(2, 4)}-${financialYear.slice(5, 7)}`;
  const number = `${prefix}/${short}/${String(sequence).padStart(5, '0')}`;
  if (number.length > 16) throw new Error(`invoice number ${number} is longer than 16 characters`);
  return number;
}

/**
 * The next invoice sequence of a financial year (1, 2, ...), in one atomic upsert. Call it inside the transaction
 * that inserts the invoice, so a rolled-back payment does not leave a gap.
 */
export async function nextInvoiceSequence(db: Db, financialYear: string, now = Date.now()): Promise<number> {
  const [row] = (await db('invoice_counters')
    .insert({ financial_year: financialYear, last_number: 1, updated_at: now })
    .onConflict('financial_year')
    .merge({ last_number: db.raw('invoice_counters.last_number + 1'), updated_at: now })
    .returning('last_number')) as Array<{ last_number: number | string }>;
  return Number(row?.last_number);
}

export type NewInvoice = Omit<InvoiceRow, 'id' | 'sac' | 'created_at' | 'discount_paise' | 'offer_code'> &
  Partial<Pick<InvoiceRow, 'sac' | 'discount_paise' | 'offer_code'>>;

export async function insertInvoice(db: Db, invoice: NewInvoice, now = Date.now()): Promise<InvoiceRow> {
  const [row] = await db('invoices')
    .insert({ ...invoice, created_at: now })
    .returning('*');
  return toInvoice(row);
}

export async function findInvoice(db: Db, id: number): Promise<InvoiceRow | undefined> {
  const row: unknown = await db('invoices').where({ id }).first();
  return row ? toInvoice(row) : undefined;
}

export async function findInvoiceByPayment(db: Db, paymentId: number): Promise<InvoiceRow | undefined> {
  const row: unknown = await db('invoices').where({ payment_id: paymentId }).first();
  return row ? toInvoice(row) : undefined;
}

export async function listInvoicesForUser(db: Db, userId: number): Promise<InvoiceRow[]> {
  return (
    await db('invoices')
      .where({ user_id: userId })
      .orderBy([
        { column: 'issued_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
  ).map(toInvoice);
}
