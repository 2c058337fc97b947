// The PDFs of a GST tax invoice (CGST Rule 46) and of a credit note against one: supplier, serial and date, recipient, place of supply, SAC, taxable
// value, tax per head with its rate, total in figures and words. Drawn from the stored row only, so the PDF of an
// invoice is the same every time it is downloaded. Amounts print as "Rs." because the standard PDF fonts lack ₹.
import PDFDocument from 'pdfkit';
import { GST_STATES } from '../contract/gst';
import type { CreditNoteRow, InvoiceRow } from '../db';
import type { SupplierSnapshot } from './issue';
import { rupeesInWords } from './tax';

const IST_DATE = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', dateStyle: 'long' });

/** 589882 → "Rs. 5,898.82" (Indian grouping). */
export function formatRupees(paise: number): string {
  const rupees = new Intl.NumberFormat('en-IN', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(paise / 100);
  return `Rs. ${rupees}`;
}

function stateName(code: string | null): string {
  if (!code) return 'not given';
  return `${GST_STATES[code] ?? 'Unknown'} (${code})`;
}

const percent = (bp: number) => `${bp / 100}%`;

/** The amounts a tax document prints: the invoice's own, or a credit note's part of them. */
type Amounts = Pick<InvoiceRow, 'taxable_paise' | 'cgst_paise' | 'sgst_paise' | 'igst_paise' | 'total_paise'>;

/**
 * Draws one GST document: supplier, the document's own number and date lines, the recipient and place of supply
 * (always the invoice's, which a credit note refers to), then the amounts at the invoice's rates.
 */
function renderTaxDocument(props: {
  /** printed at the top: TAX INVOICE or CREDIT NOTE */
  heading: string;
  /** the PDF's document title */
  title: string;
  invoice: InvoiceRow;
  documentLines: string[];
  amounts: Amounts;
  closing: string;
  compress: boolean;
}): Promise<Buffer> {
  const { invoice, amounts } = props;
  const supplier = JSON.parse(invoice.supplier_json) as SupplierSnapshot;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: props.compress,
    info: { Title: props.title, Author: supplier.legalName },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text(props.heading);
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.font('Helvetica-Bold').text(supplier.legalName).font('Helvetica');
  doc.text(supplier.address);
  doc.text(`GSTIN: ${supplier.gstin}`);
  doc.text(`State: ${stateName(supplier.stateCode)}`);
  doc.text(`Support: ${supplier.supportEmail}, ${supplier.supportPhone}`);
  doc.moveDown();
  for (const line of props.documentLines) doc.text(line);
  doc.moveDown();
  doc.font('Helvetica-Bold').text('Bill to').font('Helvetica');
  doc.text(`Recipient: ${invoice.recipient_name}`);
  doc.text(`E-mail: ${invoice.recipient_email}`);
  doc.text(`Recipient state: ${stateName(invoice.recipient_state_code)}`);
  doc.text(`Recipient GSTIN: ${invoice.recipient_gstin ?? 'unregistered (B2C)'}`);
  doc.text(`Place of supply: ${stateName(invoice.place_of_supply)}`);
  doc.moveDown();
  doc.text(`Description: ${invoice.description}`);
  doc.text(`SAC: ${invoice.sac}`);
  doc.text(`Taxable value: ${formatRupees(amounts.taxable_paise)}`);
  if (invoice.igst_rate_bp > 0) {
    doc.text(`IGST @ ${percent(invoice.igst_rate_bp)}: ${formatRupees(amounts.igst_paise)}`);
  } else {
    doc.text(`CGST @ ${percent(invoice.cgst_rate_bp)}: ${formatRupees(amounts.cgst_paise)}`);
    doc.text(`SGST @ ${percent(invoice.sgst_rate_bp)}: ${formatRupees(amounts.sgst_paise)}`);
  }
  doc
    .font('Helvetica-Bold')
    .text(`Total: ${formatRupees(amounts.total_paise)}`)
    .font('Helvetica');
  doc.text(`Amount in words: ${rupeesInWords(amounts.total_paise)}`);
  doc.moveDown();
  doc.text('Tax is not payable on reverse charge basis.');
  doc.text(`For ${supplier.legalName}: ${props.closing}`);
  doc.end();
  return done;
}

/** Renders `invoice` as a PDF. `compress: false` keeps the text operators readable (tests extract them). */
export function renderInvoicePdf(invoice: InvoiceRow, options: { compress?: boolean } = {}): Promise<Buffer> {
  return renderTaxDocument({
    heading: 'TAX INVOICE',
    title: `Tax invoice ${invoice.number}`,
    invoice,
    documentLines: [
      `Invoice number: ${invoice.number}`,
      `Invoice date: ${IST_DATE.format(invoice.issued_at)}`,
    ],
    amounts: invoice,
    closing: 'this is a computer-generated invoice and needs no signature.',
    compress: options.compress ?? true,
  });
}

/** Renders the credit note `note`, issued against `invoice`, as a PDF. */
export function renderCreditNotePdf(
  note: CreditNoteRow,
  invoice: InvoiceRow,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  return renderTaxDocument({
    heading: 'CREDIT NOTE',
    title: `Credit note ${note.number}`,
    invoice,
    documentLines: [
      `Credit note number: ${note.number}`,
      `Credit note date: ${IST_DATE.format(note.issued_at)}`,
      `Against tax invoice: ${invoice.number} dated ${IST_DATE.format(invoice.issued_at)}`,
      `Reason: ${note.reason}`,
    ],
    amounts: note,
    closing: 'this is a computer-generated credit note and needs no signature.',
    compress: options.compress ?? true,
  });
}
