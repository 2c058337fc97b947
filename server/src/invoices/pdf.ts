// The PDFs of a GST tax invoice (CGST Rule 46) and of a credit note against one, laid out as the documents an
// accountant expects: a header with the document's number and date, the supplier and the recipient side by side, a
// table of the line, and totals with each tax head at its rate, the total in figures and words. Amounts print with
// the rupee sign and Indian digit grouping (₹1,23,456.78): Noto Sans, which has ₹, is embedded from the
// `@expo-google-fonts/noto-sans` package (the standard PDF fonts lack ₹, and an npm package needs no system font on
// the trader's or operator's machine). Drawn from the stored rows only, so a document is the same at every download.
import { formatPaise } from '@optionpilot/engine/money';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { GST_STATES } from '../contract/gst';
import type { CreditNoteRow, InvoiceRow } from '../db';
import type { SupplierSnapshot } from './issue';
import { rupeesInWords } from './tax';

const IST_DATE = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', dateStyle: 'long' });

const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
} as const;

interface Fonts {
  regular: Buffer;
  bold: Buffer;
}

/** The font files, read once: a missing package is an error at the first invoice, naming the file. */
const loadFonts: () => Fonts = (() => {
  let fonts: Fonts | undefined;
  return () => {
    if (!fonts) {
      const require = createRequire(import.meta.url);
      fonts = {
        regular: readFileSync(require.resolve(FONT_FILES.regular)),
        bold: readFileSync(require.resolve(FONT_FILES.bold)),
      };
    }
    return fonts;
  };
})();

function stateName(code: string | null): string {
  if (!code) return 'not given';
  return `${GST_STATES[code] ?? 'Unknown'} (${code})`;
}

const percent = (bp: number) => `${bp / 100}%`;

/** The amounts a tax document prints: the invoice's own, or a credit note's part of them. */
type Amounts = Pick<InvoiceRow, 'taxable_paise' | 'cgst_paise' | 'sgst_paise' | 'igst_paise' | 'total_paise'>;

interface Column {
  header: string;
  width: number;
  align: 'left' | 'right';
}

const PAGE = { left: 40, width: 515 };
const INK = '#1f2937';
const MUTED = '#4b5563';
const RULE = '#9ca3af';
const SHADE = '#eef2f7';

/**
 * Draws one GST document: header (heading, the document's number/date lines), supplier and recipient, the line
 * table, then the totals at the invoice's rates and the closing notes.
 */
function renderTaxDocument(props: {
  /** printed at the top: TAX INVOICE or CREDIT NOTE */
  heading: string;
  /** the PDF's document title */
  title: string;
  invoice: InvoiceRow;
  /** label → value pairs printed at the top right (number, date, …) */
  documentFacts: Array<[string, string]>;
  columns: Column[];
  row: string[];
  amounts: Amounts;
  /** total-block lines before the taxable value (e.g. the offer's discount) */
  preamble: Array<[string, string]>;
  closing: string;
  compress: boolean;
}): Promise<Buffer> {
  const { invoice, amounts } = props;
  const supplier = JSON.parse(invoice.supplier_json) as SupplierSnapshot;
  const fonts = loadFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.left,
    compress: props.compress,
    info: { Title: props.title, Author: supplier.legalName },
  });
  doc.registerFont('body', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const right = PAGE.left + PAGE.width;

  // Header: heading and supplier name on the left, the document's facts on the right.
  const top = doc.y;
  doc.fillColor(INK).font('bold').fontSize(20).text(props.heading, PAGE.left, top);
  doc.font('body').fontSize(9).fillColor(MUTED).text('Original for recipient');
  const factsX = PAGE.left + 300;
  let factsY = top + 2;
  for (const [label, value] of props.documentFacts) {
    doc.font('body').fontSize(9).fillColor(MUTED).text(label, factsX, factsY, { width: 95 });
    doc
      .font('bold')
      .fillColor(INK)
      .text(value, factsX + 95, factsY, { width: PAGE.width - 395, align: 'right' });
    factsY = doc.y + 2;
  }
  const headerBottom = Math.max(doc.y, top + 40) + 10;
  doc.moveTo(PAGE.left, headerBottom).lineTo(right, headerBottom).lineWidth(1).strokeColor(INK).stroke();

  // Parties side by side.
  const partyY = headerBottom + 12;
  const colWidth = PAGE.width / 2 - 10;
  const party = (x: number, label: string, name: string, lines: string[]) => {
    doc.font('bold').fontSize(8).fillColor(MUTED).text(label.toUpperCase(), x, partyY, { width: colWidth });
    doc
      .font('bold')
      .fontSize(11)
      .fillColor(INK)
      .text(name, x, doc.y + 2, { width: colWidth });
    doc.font('body').fontSize(9);
    for (const line of lines) doc.text(line, x, doc.y + 1, { width: colWidth });
    return doc.y;
  };
  const supplierBottom = party(PAGE.left, 'Supplier', supplier.legalName, [
    supplier.address,
    `GSTIN: ${supplier.gstin}`,
    `State: ${stateName(supplier.stateCode)}`,
    `Support: ${supplier.supportEmail}, ${supplier.supportPhone}`,
  ]);
  const recipientBottom = party(PAGE.left + PAGE.width / 2 + 10, 'Bill to', invoice.recipient_name, [
    `E-mail: ${invoice.recipient_email}`,
    `GSTIN: ${invoice.recipient_gstin ?? 'unregistered (B2C)'}`,
    `State: ${stateName(invoice.recipient_state_code)}`,
    `Place of supply: ${stateName(invoice.place_of_supply)}`,
  ]);

  // The line table: a shaded header row, the line, a rule.
  let y = Math.max(supplierBottom, recipientBottom) + 18;
  const headerHeight = 20;
  doc.rect(PAGE.left, y, PAGE.width, headerHeight).fill(SHADE);
  let x = PAGE.left;
  doc.font('bold').fontSize(8.5).fillColor(INK);
  for (const column of props.columns) {
    doc.text(column.header, x + 4, y + 6, { width: column.width - 8, align: column.align });
    x += column.width;
  }
  y += headerHeight + 6;
  x = PAGE.left;
  doc.font('body').fontSize(9);
  let rowBottom = y;
  props.columns.forEach((column, i) => {
    doc.text(props.row[i] ?? '', x + 4, y, { width: column.width - 8, align: column.align });
    rowBottom = Math.max(rowBottom, doc.y);
    x += column.width;
  });
  y = rowBottom + 6;
  doc.moveTo(PAGE.left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();

  // Totals, right-aligned under the table.
  y += 10;
  const labelX = PAGE.left + 270;
  const total = (label: string, value: string, strong = false) => {
    doc
      .font(strong ? 'bold' : 'body')
      .fontSize(strong ? 11 : 9.5)
      .fillColor(INK);
    doc.text(label, labelX, y, { width: 140 });
    doc.text(value, labelX + 140, y, { width: PAGE.width - 410, align: 'right' });
    y = doc.y + 4;
  };
  for (const [label, value] of props.preamble) total(label, value);
  total('Taxable value', formatPaise(amounts.taxable_paise));
  if (invoice.igst_rate_bp > 0) {
    total(`IGST @ ${percent(invoice.igst_rate_bp)}`, formatPaise(amounts.igst_paise));
  } else {
    total(`CGST @ ${percent(invoice.cgst_rate_bp)}`, formatPaise(amounts.cgst_paise));
    total(`SGST @ ${percent(invoice.sgst_rate_bp)}`, formatPaise(amounts.sgst_paise));
  }
  doc.moveTo(labelX, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 6;
  total('Total', formatPaise(amounts.total_paise), true);

  y += 8;
  doc.font('body').fontSize(9).fillColor(INK);
  doc.text(`Amount in words: ${rupeesInWords(amounts.total_paise)}`, PAGE.left, y, { width: PAGE.width });
  doc.moveDown(1.2);
  doc.fillColor(MUTED).text('Tax payable on reverse charge basis: No.', { width: PAGE.width });
  doc.text(`For ${supplier.legalName}: ${props.closing}`, { width: PAGE.width });
  doc.end();
  return done;
}

/** Renders `invoice` as a PDF. `compress: false` keeps the content streams readable when debugging. */
export function renderInvoicePdf(invoice: InvoiceRow, options: { compress?: boolean } = {}): Promise<Buffer> {
  const discounted = invoice.discount_paise > 0;
  const listPrice = invoice.taxable_paise + invoice.discount_paise;
  const discountLabel = invoice.offer_code ? `Discount (offer ${invoice.offer_code})` : 'Discount';
  return renderTaxDocument({
    heading: 'TAX INVOICE',
    title: `Tax invoice ${invoice.number}`,
    invoice,
    documentFacts: [
      ['Invoice number', invoice.number],
      ['Invoice date', IST_DATE.format(invoice.issued_at)],
    ],
    columns: [
      { header: '#', width: 22, align: 'left' },
      { header: 'Description', width: 203, align: 'left' },
      { header: 'SAC', width: 50, align: 'left' },
      { header: 'Qty', width: 30, align: 'right' },
      { header: 'Rate', width: 70, align: 'right' },
      { header: 'Discount', width: 65, align: 'right' },
      { header: 'Taxable value', width: 75, align: 'right' },
    ],
    row: [
      '1',
      invoice.description,
      invoice.sac,
      '1',
      formatPaise(listPrice),
      discounted ? `−${formatPaise(invoice.discount_paise)}` : formatPaise(0),
      formatPaise(invoice.taxable_paise),
    ],
    amounts: invoice,
    preamble: discounted
      ? [
          ['List price', formatPaise(listPrice)],
          [discountLabel, `−${formatPaise(invoice.discount_paise)}`],
        ]
      : [],
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
    documentFacts: [
      ['Credit note number', note.number],
      ['Credit note date', IST_DATE.format(note.issued_at)],
      ['Against invoice', invoice.number],
      ['Invoice date', IST_DATE.format(invoice.issued_at)],
    ],
    columns: [
      { header: '#', width: 22, align: 'left' },
      { header: 'Description', width: 250, align: 'left' },
      { header: 'SAC', width: 60, align: 'left' },
      { header: 'Reason', width: 108, align: 'left' },
      { header: 'Taxable value', width: 75, align: 'right' },
    ],
    row: ['1', invoice.description, invoice.sac, note.reason, formatPaise(note.taxable_paise)],
    amounts: note,
    preamble: [],
    closing: 'this is a computer-generated credit note and needs no signature.',
    compress: options.compress ?? true,
  });
}
