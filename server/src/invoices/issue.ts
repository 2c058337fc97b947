// Issues the GST tax invoice of a payment (CGST Rule 46), inside the transaction that records the payment: the
// serial comes from `invoice_counters` in the same transaction, so a rolled-back payment leaves no gap and two
// concurrent payments never share a number. Invoices are never edited; refunds get credit notes.
import { operatorPublicDetails, type OperatorDetails } from '../config';
import type { PublicConfigDto } from '../contract';
import {
  financialYearOf,
  formatInvoiceNumber,
  insertInvoice,
  nextInvoiceSequence,
  type Db,
  type InvoiceRow,
} from '../db';
import { splitGst } from './tax';

/** The supplier as printed on the invoice; stored with it, so a later change of address does not rewrite history. */
export type SupplierSnapshot = PublicConfigDto['operator'];

export interface InvoiceRecipient {
  name: string;
  email: string;
  /** GST state code; unknown → the supplier's state is the place of supply (B2C without an address on record) */
  stateCode: string | null;
  gstin: string | null;
}

export async function issueInvoice(props: {
  db: Db;
  operator: OperatorDetails;
  userId: number;
  paymentId: number;
  subscriptionId: number | null;
  description: string;
  recipient: InvoiceRecipient;
  taxablePaise: number;
  gstPaise: number;
  /** an offer's discount off the list price (list price = taxable + discount), printed on the invoice */
  discount?: { paise: number; offerCode: string | null } | null;
  rateBp: number;
  issuedAt: number;
}): Promise<InvoiceRow> {
  const { db, operator, recipient, issuedAt } = props;
  const placeOfSupply = recipient.stateCode ?? operator.stateCode;
  const tax = splitGst({
    gstPaise: props.gstPaise,
    rateBp: props.rateBp,
    supplierStateCode: operator.stateCode,
    placeOfSupply,
  });
  const financialYear = financialYearOf(issuedAt);
  const sequence = await nextInvoiceSequence(db, financialYear, issuedAt);
  return insertInvoice(
    db,
    {
      financial_year: financialYear,
      number: formatInvoiceNumber(operator.invoicePrefix, financialYear, sequence),
      user_id: props.userId,
      payment_id: props.paymentId,
      subscription_id: props.subscriptionId,
      issued_at: issuedAt,
      sac: operator.sac,
      description: props.description.slice(0, 200),
      place_of_supply: placeOfSupply,
      recipient_name: recipient.name.slice(0, 200),
      recipient_email: recipient.email,
      recipient_state_code: recipient.stateCode,
      recipient_gstin: recipient.gstin,
      taxable_paise: props.taxablePaise,
      cgst_rate_bp: tax.cgstRateBp,
      cgst_paise: tax.cgstPaise,
      sgst_rate_bp: tax.sgstRateBp,
      sgst_paise: tax.sgstPaise,
      igst_rate_bp: tax.igstRateBp,
      igst_paise: tax.igstPaise,
      total_paise: props.taxablePaise + props.gstPaise,
      discount_paise: props.discount?.paise ?? 0,
      offer_code: props.discount?.offerCode ?? null,
      supplier_json: JSON.stringify(operatorPublicDetails(operator)),
    },
    issuedAt,
  );
}
