// The invoice and credit-note PDFs carry every CGST Rule 46 field, in rupees with ₹ and Indian grouping. The text is
// read back as a PDF reader sees it (PDF.js through the embedded font's Unicode map), line by line, so a field and
// its amount on one line of the layout are checked together.
import { describe, expect, it } from 'vitest';
import type { CreditNoteRow, InvoiceRow } from '../db';
import { pdfLines } from '../testing/pdfText';
import { renderCreditNotePdf, renderInvoicePdf } from './pdf';

const supplier = {
  legalName: 'Acme Algo Pvt Ltd',
  address: '12 MG Road, Bengaluru 560001',
  stateCode: '29',
  gstin: '29ABCDE1234F1Z5',
  supportEmail: 'help@acme.example',
  supportPhone: '+91 80 1234 5678',
};

const base: InvoiceRow = {
  id: 1,
  financial_year: '2026-27',
  number: 'OP/26-27/00123',
  user_id: 7,
  payment_id: 9,
  subscription_id: 3,
  issued_at: Date.UTC(2026, 10, 20, 6, 0, 0),
  sac: '997331',
  description: 'Professional Monthly subscription (1 month)',
  place_of_supply: '29',
  recipient_name: 'Asha Buyer',
  recipient_email: 'asha@example.com',
  recipient_state_code: '29',
  recipient_gstin: null,
  taxable_paise: 499_900,
  cgst_rate_bp: 900,
  cgst_paise: 44_991,
  sgst_rate_bp: 900,
  sgst_paise: 44_991,
  igst_rate_bp: 0,
  igst_paise: 0,
  total_paise: 589_882,
  discount_paise: 0,
  offer_code: null,
  supplier_json: JSON.stringify(supplier),
  created_at: 0,
};

/** The lines of a PDF as a reader sees them. */
async function linesOf(pdf: Buffer): Promise<string[]> {
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfLines(pdf);
}

describe('renderInvoicePdf', () => {
  it('lays out a tax invoice: header, parties, the line, CGST and SGST, total in ₹ and words', async () => {
    const lines = await linesOf(await renderInvoicePdf(base));
    const text = lines.join('\n');
    for (const line of [
      'TAX INVOICE',
      'Invoice number OP/26-27/00123',
      'Invoice date 20 November 2026',
      'SUPPLIER BILL TO',
      'Acme Algo Pvt Ltd Asha Buyer',
      '12 MG Road, Bengaluru 560001 E-mail: asha@example.com',
      'GSTIN: 29ABCDE1234F1Z5 GSTIN: unregistered (B2C)',
      'State: Karnataka (29) State: Karnataka (29)',
      'Support: help@acme.example, +91 80 1234 5678 Place of supply: Karnataka (29)',
      '# Description SAC Qty Rate Discount Taxable value',
      '1 Professional Monthly subscription (1 month) 997331 1 ₹4,999.00 ₹0.00 ₹4,999.00',
      'Taxable value ₹4,999.00',
      'CGST @ 9% ₹449.91',
      'SGST @ 9% ₹449.91',
      'Total ₹5,898.82',
      'Amount in words: Rupees Five Thousand Eight Hundred Ninety Eight and Eighty Two Paise Only',
      'Tax payable on reverse charge basis: No.',
    ]) {
      expect(lines, `missing line: ${line}\n${text}`).toContain(line);
    }
    expect(text).not.toContain('IGST');
    expect(text).not.toContain('Rs.');
    expect(text).not.toContain('List price');
  });

  it('shows the offer: list price, the discount with its code, GST on the discounted taxable value', async () => {
    // 4,999.00 − 10 % = 4,499.10; GST 809.84 split 404.92 + 404.92; total 5,308.94.
    const lines = await linesOf(
      await renderInvoicePdf({
        ...base,
        taxable_paise: 449_910,
        discount_paise: 49_990,
        offer_code: 'DIWALI10',
        cgst_paise: 40_492,
        sgst_paise: 40_492,
        total_paise: 530_894,
      }),
    );
    for (const line of [
      '1 Professional Monthly subscription (1 month) 997331 1 ₹4,999.00 −₹499.90 ₹4,499.10',
      'List price ₹4,999.00',
      'Discount (offer DIWALI10) −₹499.90',
      'Taxable value ₹4,499.10',
      'CGST @ 9% ₹404.92',
      'SGST @ 9% ₹404.92',
      'Total ₹5,308.94',
    ]) {
      expect(lines, `missing line: ${line}\n${lines.join('\n')}`).toContain(line);
    }
  });

  it('prints IGST and the buyer GSTIN for an out-of-state B2B buyer', async () => {
    const lines = await linesOf(
      await renderInvoicePdf({
        ...base,
        place_of_supply: '27',
        recipient_state_code: '27',
        recipient_gstin: '27AAACB1234C1Z9',
        cgst_rate_bp: 0,
        cgst_paise: 0,
        sgst_rate_bp: 0,
        sgst_paise: 0,
        igst_rate_bp: 1800,
        igst_paise: 89_982,
      }),
    );
    const text = lines.join('\n');
    expect(lines).toContain('IGST @ 18% ₹899.82');
    expect(text).toContain('GSTIN: 27AAACB1234C1Z9');
    expect(text).toContain('Place of supply: Maharashtra (27)');
    expect(text).not.toContain('CGST');
  });
});

describe('renderCreditNotePdf', () => {
  it('prints the note, the invoice it is against, the reason and its own amounts at the invoice rates', async () => {
    const note: CreditNoteRow = {
      id: 1,
      financial_year: '2026-27',
      number: 'OPC/26-27/00001',
      user_id: 7,
      invoice_id: 1,
      refund_id: 4,
      issued_at: Date.UTC(2026, 10, 25, 6, 0, 0),
      reason: 'Duplicate payment',
      taxable_paise: 84_746,
      cgst_paise: 7_627,
      sgst_paise: 7_627,
      igst_paise: 0,
      total_paise: 100_000,
      created_at: 0,
    };
    const lines = await linesOf(await renderCreditNotePdf(note, base));
    const text = lines.join('\n');
    for (const line of [
      'CREDIT NOTE',
      'Credit note number OPC/26-27/00001',
      'Credit note date 25 November 2026',
      'Against invoice OP/26-27/00123',
      'Invoice date 20 November 2026',
      'Acme Algo Pvt Ltd Asha Buyer',
      'GSTIN: 29ABCDE1234F1Z5 GSTIN: unregistered (B2C)',
      '1 Professional Monthly subscription (1 month) 997331 Duplicate payment ₹847.46',
      'Taxable value ₹847.46',
      'CGST @ 9% ₹76.27',
      'SGST @ 9% ₹76.27',
      'Total ₹1,000.00',
      'Amount in words: Rupees One Thousand Only',
    ]) {
      expect(lines, `missing line: ${line}\n${text}`).toContain(line);
    }
    expect(text).toContain('Place of supply: Karnataka (29)');
    expect(text).not.toContain('TAX INVOICE');
  });
});
