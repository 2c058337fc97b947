// Revenue by IST month (issue 18 item 3): gross received, refunds processed and net, beside the GST of the month's
// tax documents net of credit notes; and the GST register an accountant files from (GSTR-1 style: one row per tax
// invoice and per credit note). Money in integer paise; months and dates in IST.
//
// Months are bucketed in SQL with a CASE over the months' IST boundaries computed here, so the same query runs on
// SQLite and PostgreSQL without date functions of either; the CASE is grouped in an outer query because PostgreSQL
// cannot match a GROUP BY expression whose bound parameters differ from the select list's.
import type { Knex } from 'knex';
import type { z } from 'zod';
import { stringify } from 'csv-stringify/sync';
import { istDate, istMidnight } from '@optionpilot/engine';
import { GST_STATES } from '../../contract/gst';
import type {
  RevenueFiguresDto,
  RevenueMonthDto,
  RevenueSummaryResponse,
  revenueRangeQuerySchema,
} from '../../contract';
import { toNumber, type Db } from '../../db';
import { excludingTestAccounts } from './testAccounts';

export type RevenueRange = z.output<typeof revenueRangeQuerySchema>;

interface Month {
  key: string;
  /** IST midnight starting the month, inclusive */
  start: number;
  /** IST midnight starting the next month, exclusive */
  end: number;
}

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthKey = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/** The IST months of a range (defaults: the year up to this month), oldest first. */
export function monthsOf(range: RevenueRange, now: number): Month[] {
  const to = range.to ?? istDate(now).slice(0, 7);
  const from = range.from ?? monthKey(monthIndex(to) - 11);
  const months: Month[] = [];
  for (let i = monthIndex(from); i <= monthIndex(to); i += 1) {
    months.push({
      key: monthKey(i),
      start: istMidnight(`${monthKey(i)}-01`),
      end: istMidnight(`${monthKey(i + 1)}-01`),
    });
  }
  return months;
}

/** `CASE WHEN col >= ? AND col < ? THEN '2026-01' … END` over the months. */
function monthCase(db: Db, column: string, months: readonly Month[]): Knex.Raw {
  const whens = months.map(() => `WHEN ${column} >= ? AND ${column} < ? THEN ?`).join(' ');
  const bindings = months.flatMap((m) => [m.start, m.end, m.key]);
  return db.raw(`CASE ${whens} END`, bindings);
}

type Sums = Record<string, number>;

/** `sum`s (and a count) of `table` per month of `column`, as month → column → value. */
async function perMonth(props: {
  db: Db;
  table: string;
  column: string;
  months: readonly Month[];
  sums: readonly string[];
  where?: (builder: Knex.QueryBuilder) => void;
}): Promise<Map<string, Sums>> {
  const { db, table, column, months, sums } = props;
  const first = months[0];
  const last = months[months.length - 1];
  if (!first || !last) return new Map();
  const inner = db(table)
    .select({ month: monthCase(db, `${table}.${column}`, months) }, ...sums.map((c) => `${table}.${c}`))
    .where(`${table}.${column}`, '>=', first.start)
    .where(`${table}.${column}`, '<', last.end);
  props.where?.(inner);
  const rows = (await db
    .from(inner.as('m'))
    .groupBy('m.month')
    .select('m.month', db.raw('count(*) as n'), ...sums.map((c) => db.raw(`sum(m.${c}) as ${c}`)))) as Array<
    Record<string, unknown>
  >;
  const out = new Map<string, Sums>();
  for (const row of rows) {
    const values: Sums = { n: toNumber(row.n) };
    for (const c of sums) values[c] = toNumber(row[c]);
    out.set(String(row.month), values);
  }
  return out;
}

const ZERO: RevenueFiguresDto = {
  grossPaise: 0,
  refundsPaise: 0,
  netPaise: 0,
  taxablePaise: 0,
  cgstPaise: 0,
  sgstPaise: 0,
  igstPaise: 0,
  invoiceCount: 0,
  creditNoteCount: 0,
};

function add(a: RevenueFiguresDto, b: RevenueFiguresDto): RevenueFiguresDto {
  return {
    grossPaise: a.grossPaise + b.grossPaise,
    refundsPaise: a.refundsPaise + b.refundsPaise,
    netPaise: a.netPaise + b.netPaise,
    taxablePaise: a.taxablePaise + b.taxablePaise,
    cgstPaise: a.cgstPaise + b.cgstPaise,
    sgstPaise: a.sgstPaise + b.sgstPaise,
    igstPaise: a.igstPaise + b.igstPaise,
    invoiceCount: a.invoiceCount + b.invoiceCount,
    creditNoteCount: a.creditNoteCount + b.creditNoteCount,
  };
}

const HEADS = ['taxable_paise', 'cgst_paise', 'sgst_paise', 'igst_paise'] as const;

/** The figures of each month of `months` (see RevenueFiguresDto for what each counts). */
export async function revenueByMonth(db: Db, months: readonly Month[]): Promise<RevenueMonthDto[]> {
  const received = await perMonth({
    db,
    table: 'payments',
    column: 'paid_at',
    months,
    sums: ['amount_paise'],
    where: (b) => {
      void b.whereIn('payments.status', ['captured', 'refunded']);
      excludingTestAccounts(b, 'payments.user_id');
    },
  });
  const refunded = await perMonth({
    db,
    table: 'refunds',
    column: 'updated_at',
    months,
    sums: ['amount_paise'],
    where: (b) => {
      void b.where('refunds.status', 'processed');
      excludingTestAccounts(b, 'refunds.user_id');
    },
  });
  const invoiced = await perMonth({ db, table: 'invoices', column: 'issued_at', months, sums: HEADS });
  const credited = await perMonth({ db, table: 'credit_notes', column: 'issued_at', months, sums: HEADS });
  return months.map((m) => {
    const gross = received.get(m.key)?.amount_paise ?? 0;
    const refunds = refunded.get(m.key)?.amount_paise ?? 0;
    const inv = invoiced.get(m.key) ?? {};
    const cn = credited.get(m.key) ?? {};
    const net = (head: (typeof HEADS)[number]) => (inv[head] ?? 0) - (cn[head] ?? 0);
    return {
      month: m.key,
      grossPaise: gross,
      refundsPaise: refunds,
      netPaise: gross - refunds,
      taxablePaise: net('taxable_paise'),
      cgstPaise: net('cgst_paise'),
      sgstPaise: net('sgst_paise'),
      igstPaise: net('igst_paise'),
      invoiceCount: inv.n ?? 0,
      creditNoteCount: cn.n ?? 0,
    };
  });
}

/** `GET /api/admin/revenue/summary` */
export async function revenueSummary(props: {
  db: Db;
  range: RevenueRange;
  now: number;
}): Promise<RevenueSummaryResponse> {
  const months = monthsOf(props.range, props.now);
  const rows = await revenueByMonth(props.db, months);
  return {
    from: months[0]?.key ?? '',
    to: months[months.length - 1]?.key ?? '',
    months: rows,
    totals: rows.reduce<RevenueFiguresDto>((sum, { month: _month, ...figures }) => add(sum, figures), ZERO),
  };
}

// ------------------------------------------------------------------------------------------------ GST register

/** Paise as plain rupees for a spreadsheet: 449910 → "4499.10", −100 → "-1.00" (no grouping, no symbol). */
export function rupeesText(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError('paise must be a whole number');
  const abs = Math.abs(paise);
  return `${paise < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** An instant as its IST date, DD-MM-YYYY (as the GST portal writes dates). */
function istDay(at: number): string {
  const [y, m, d] = istDate(at).split('-');
  return `${d}-${m}-${y}`;
}

/** "29-Karnataka", GSTR-1's place-of-supply form. */
function placeOfSupply(code: string): string {
  return `${code}-${GST_STATES[code] ?? 'Unknown'}`;
}

export const GST_REGISTER_COLUMNS = [
  'Document type',
  'Number',
  'Date',
  'Original invoice number',
  'Original invoice date',
  'Recipient name',
  'Recipient GSTIN',
  'Supply type',
  'Place of supply',
  'Reason',
  'Rate (%)',
  'Taxable value',
  'CGST',
  'SGST',
  'IGST',
  'Total',
] as const;

interface RegisterRow {
  kind: 'invoice' | 'credit';
  number: string;
  issued_at: number;
  original_number: string | null;
  original_issued_at: number | null;
  recipient_name: string;
  recipient_gstin: string | null;
  place_of_supply: string;
  reason: string | null;
  rate_bp: number;
  taxable_paise: number;
  cgst_paise: number;
  sgst_paise: number;
  igst_paise: number;
  total_paise: number;
}

/** Every tax invoice and credit note issued in the months, by date then number. Amounts as on the documents. */
export async function gstRegisterRows(db: Db, months: readonly Month[]): Promise<RegisterRow[]> {
  const from = months[0]?.start ?? 0;
  const to = months[months.length - 1]?.end ?? 0;
  const invoices = (await db('invoices')
    .where('issued_at', '>=', from)
    .where('issued_at', '<', to)
    .select('*')) as Array<Record<string, unknown>>;
  const credits = (await db('credit_notes')
    .join('invoices', 'invoices.id', 'credit_notes.invoice_id')
    .where('credit_notes.issued_at', '>=', from)
    .where('credit_notes.issued_at', '<', to)
    .select(
      'credit_notes.*',
      'invoices.number as original_number',
      'invoices.issued_at as original_issued_at',
      'invoices.recipient_name',
      'invoices.recipient_gstin',
      'invoices.place_of_supply',
      'invoices.cgst_rate_bp',
      'invoices.igst_rate_bp',
    )) as Array<Record<string, unknown>>;
  const head = (r: Record<string, unknown>) => ({
    taxable_paise: toNumber(r.taxable_paise),
    cgst_paise: toNumber(r.cgst_paise),
    sgst_paise: toNumber(r.sgst_paise),
    igst_paise: toNumber(r.igst_paise),
    total_paise: toNumber(r.total_paise),
    recipient_name: String(r.recipient_name),
    recipient_gstin: r.recipient_gstin === null ? null : String(r.recipient_gstin),
    place_of_supply: String(r.place_of_supply),
    // CGST + SGST at half the rate each, or IGST at the full rate: the document's GST rate either way.
    rate_bp: toNumber(r.igst_rate_bp) > 0 ? toNumber(r.igst_rate_bp) : 2 * toNumber(r.cgst_rate_bp),
  });
  const rows: RegisterRow[] = [
    ...invoices.map((r) => ({
      kind: 'invoice' as const,
      number: String(r.number),
      issued_at: toNumber(r.issued_at),
      original_number: null,
      original_issued_at: null,
      reason: null,
      ...head(r),
    })),
    ...credits.map((r) => ({
      kind: 'credit' as const,
      number: String(r.number),
      issued_at: toNumber(r.issued_at),
      original_number: String(r.original_number),
      original_issued_at: toNumber(r.original_issued_at),
      reason: String(r.reason),
      ...head(r),
    })),
  ];
  const kindOrder = (r: RegisterRow) => (r.kind === 'invoice' ? 0 : 1);
  return rows.sort(
    (a, b) =>
      a.issued_at - b.issued_at ||
      kindOrder(a) - kindOrder(b) ||
      a.number.localeCompare(b.number, 'en', { numeric: true }),
  );
}

/**
 * The register as CSV (RFC 4180 through csv-stringify, with a UTF-8 byte-order mark so spreadsheet programs read
 * names in any script, and cells that a spreadsheet would run as a formula escaped).
 */
export function gstRegisterCsv(rows: readonly RegisterRow[]): string {
  return stringify(
    rows.map((r) => [
      r.kind === 'invoice' ? 'Tax invoice' : 'Credit note',
      r.number,
      istDay(r.issued_at),
      r.original_number ?? '',
      r.original_issued_at === null ? '' : istDay(r.original_issued_at),
      r.recipient_name,
      r.recipient_gstin ?? '',
      r.recipient_gstin ? 'B2B' : 'B2C',
      placeOfSupply(r.place_of_supply),
      r.reason ?? '',
      String(r.rate_bp / 100),
      rupeesText(r.taxable_paise),
      rupeesText(r.cgst_paise),
      rupeesText(r.sgst_paise),
      rupeesText(r.igst_paise),
      rupeesText(r.total_paise),
    ]),
    {
      header: true,
      columns: [...GST_REGISTER_COLUMNS],
      bom: true,
      escape_formulas: true,
      record_delimiter: 'windows',
    },
  );
}
