// The PDF of a GST tax invoice (CGST Rule 46): supplier, serial and date, recipient, place of supply, SAC, taxable
// value, tax per head with its rate, total in figures and words. Drawn from the stored row only, so the PDF of an
// invoice is the same every time it is downloaded. Amounts print as "Rs." because the standard PDF fonts lack ₹.
import PDFDocument from 'pdfkit';
import { GST_STATES } from '../contract/gst';
import type { InvoiceRow } from '../db';
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

/** Renders `invoice` as a PDF. `compress: false` keeps the text operators readable (tests extract them). */
export function renderInvoicePdf(invoice: InvoiceRow, options: { compress?: boolean } = {}): Promise<Buffer> {
  const supplier = JSON.parse(invoice.supplier_json) as SupplierSnapshot;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: { Title: `Tax invoice ${invoice.number}`, Author: supplier.legalName },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text('TAX INVOICE');
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.font('Helvetica-Bold').text(supplier.legalName).font('Helvetica');
  doc.text(supplier.address);
  doc.text(`GSTIN: ${supplier.gstin}`);
  doc.text(`State: ${stateName(supplier.stateCode)}`);
  doc.text(`Support: ${supplier.supportEmail}, ${supplier.supportPhone}`);
  doc.moveDown();
  doc.text(`Invoice number: ${invoice.number}`);
  doc.text(`Invoice date: ${IST_DATE.format(invoice.issued_at)}`);
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
  doc.text(`Taxable value: ${formatRupees(invoice.taxable_paise)}`);
  if (invoice.igst_paise > 0) {
    doc.text(`IGST @ ${percent(invoice.igst_rate_bp)}: ${formatRupees(invoice.igst_paise)}`);
  } else {
    doc.text(`CGST @ ${percent(invoice.cgst_rate_bp)}: ${formatRupees(invoice.cgst_paise)}`);
    doc.text(`SGST @ ${percent(invoice.sgst_rate_bp)}: ${formatRupees(invoice.sgst_paise)}`);
  }
  doc
    .font('Helvetica-Bold')
    .text(`Total: ${formatRupees(invoice.total_paise)}`)
    .font('Helvetica');
  doc.text(`Amount in words: ${rupeesInWords(invoice.total_paise)}`);
  doc.moveDown();
  doc.text('Tax is not payable on reverse charge basis.');
  doc.text(`For ${supplier.legalName}: this is a computer-generated invoice and needs no signature.`);
  doc.end();
  return done;
}
