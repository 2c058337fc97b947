// The GST credit note of a refund (CGST section 34): issued against the payment's tax invoice, in its own series
// (`<prefix>C/26-27/00001`), inside the transaction that records the refund as processed. A refund is split in
// the invoice's proportions and tax regime, computed on the running total refunded, so a payment's credit notes
// add up to its invoice to the paisa, head by head, and never exceed it.
import type { OperatorDetails } from '../config';
import {
  financialYearOf,
  formatInvoiceNumber,
  insertCreditNote,
  nextCreditNoteSequence,
  type CreditNoteRow,
  type Db,
  type InvoiceRow,
} from '../db';

type Heads = Pick<
  CreditNoteRow,
  'taxable_paise' | 'cgst_paise' | 'sgst_paise' | 'igst_paise' | 'total_paise'
>;

/**
 * The heads of the first `cumulativePaise` refunded of `invoice`: the taxable value in the invoice's proportion
 * (nearest paisa, halves up), the tax the rest, split between CGST and SGST as the invoice split it. Each head
 * grows with the amount and equals the invoice's at its total, so differences of it never go negative or drift.
 */
function cumulativeHeads(invoice: InvoiceRow, cumulativePaise: number): Heads {
  const total = invoice.total_paise;
  if (cumulativePaise >= total) {
    return {
      taxable_paise: invoice.taxable_paise,
      cgst_paise: invoice.cgst_paise,
      sgst_paise: invoice.sgst_paise,
      igst_paise: invoice.igst_paise,
      total_paise: total,
    };
  }
  const taxable = Math.floor((cumulativePaise * invoice.taxable_paise * 2 + total) / (2 * total));
  const tax = cumulativePaise - taxable;
  const intraTax = invoice.cgst_paise + invoice.sgst_paise;
  const cgst = intraTax > 0 ? Math.floor((tax * invoice.cgst_paise) / intraTax) : 0;
  return {
    taxable_paise: taxable,
    cgst_paise: cgst,
    sgst_paise: intraTax > 0 ? tax - cgst : 0,
    igst_paise: intraTax > 0 ? 0 : tax,
    total_paise: cumulativePaise,
  };
}

/** The heads of a credit note for `amountPaise` against `invoice`, given the notes already issued against it. */
export function creditNoteHeads(invoice: InvoiceRow, earlier: readonly Heads[], amountPaise: number): Heads {
  const before = earlier.reduce((sum, note) => sum + note.total_paise, 0);
  if (before + amountPaise > invoice.total_paise) {
    throw new RangeError(
      `a credit note of ${amountPaise} paise exceeds the ${invoice.total_paise - before} left`,
    );
  }
  const from = cumulativeHeads(invoice, before);
  const to = cumulativeHeads(invoice, before + amountPaise);
  return {
    taxable_paise: to.taxable_paise - from.taxable_paise,
    cgst_paise: to.cgst_paise - from.cgst_paise,
    sgst_paise: to.sgst_paise - from.sgst_paise,
    igst_paise: to.igst_paise - from.igst_paise,
    total_paise: amountPaise,
  };
}

/** Issues the credit note of a processed refund; call inside the refund's transaction. */
export async function issueCreditNote(props: {
  db: Db;
  operator: Pick<OperatorDetails, 'invoicePrefix'>;
  invoice: InvoiceRow;
  refund: { id: number; amountPaise: number; reason: string };
  issuedAt: number;
}): Promise<CreditNoteRow> {
  const { db, invoice, refund, issuedAt } = props;
  const earlier = (await db('credit_notes')
    .where({ invoice_id: invoice.id })
    .select('taxable_paise', 'cgst_paise', 'sgst_paise', 'igst_paise', 'total_paise')) as Array<
    Record<keyof Heads, number | string>
  >;
  const heads = creditNoteHeads(
    invoice,
    earlier.map((h) => ({
      taxable_paise: Number(h.taxable_paise),
      cgst_paise: Number(h.cgst_paise),
      sgst_paise: Number(h.sgst_paise),
      igst_paise: Number(h.igst_paise),
      total_paise: Number(h.total_paise),
    })),
    refund.amountPaise,
  );
  const financialYear = financialYearOf(issuedAt);
  const sequence = await nextCreditNoteSequence(db, financialYear, issuedAt);
  return insertCreditNote(
    db,
    {
      financial_year: financialYear,
      number: formatInvoiceNumber(`${props.operator.invoicePrefix}C`, financialYear, sequence),
      user_id: invoice.user_id,
      invoice_id: invoice.id,
      refund_id: refund.id,
      issued_at: issuedAt,
      reason: refund.reason.slice(0, 200),
      ...heads,
    },
    issuedAt,
  );
}
