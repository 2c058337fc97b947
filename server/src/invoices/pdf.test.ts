// The invoice PDF carries every CGST Rule 46 field. The text is read back from the uncompressed content stream
// (pdfkit writes each line as a TJ array of hex strings).
import { describe, expect, it } from 'vitest';
import type { CreditNoteRow, InvoiceRow } from '../db';
import { renderCreditNotePdf, renderInvoicePdf } from './pdf';

function pdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const lines: string[] = [];
  for (const match of source.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    const parts = [...(match[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((m) =>
      Buffer.from(m[1] ?? '', 'hex').toString('latin1'),
    );
    lines.push(parts.join(''));
  }
  return lines.join('\n');
}

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

describe('renderInvoicePdf', () => {
  it('prints every Rule 46 field with CGST and SGST for an in-state buyer', async () => {
    const pdf = await renderInvoicePdf(base, { compress: false });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const field of [
      'TAX INVOICE',
      'Acme Algo Pvt Ltd',
      '12 MG Road, Bengaluru 560001',
      'GSTIN: 29ABCDE1234F1Z5',
      'State: Karnataka (29)',
      'Invoice number: OP/26-27/00123',
      'Invoice date: 20 November 2026',
      'Recipient: Asha Buyer',
      'Recipient state: Karnataka (29)',
      'Place of supply: Karnataka (29)',
      'SAC: 997331',
      'Taxable value: Rs. 4,999.00',
      'CGST @ 9%: Rs. 449.91',
      'SGST @ 9%: Rs. 449.91',
      'Total: Rs. 5,898.82',
      'Rupees Five Thousand Eight Hundred Ninety Eight and Eighty Two Paise Only',
    ]) {
      expect(text).toContain(field);
    }
    expect(text).not.toContain('IGST');
  });

  it('prints IGST and the buyer GSTIN for an out-of-state B2B buyer', async () => {
    const text = pdfText(
      await renderInvoicePdf(
        {
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
        },
        { compress: false },
      ),
    );
    expect(text).toContain('IGST @ 18%: Rs. 899.82');
    expect(text).toContain('Recipient GSTIN: 27AAACB1234C1Z9');
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
    const text = pdfText(await renderCreditNotePdf(note, base, { compress: false }));
    for (const field of [
      'CREDIT NOTE',
      'Acme Algo Pvt Ltd',
      'GSTIN: 29ABCDE1234F1Z5',
      'Credit note number: OPC/26-27/00001',
      'Credit note date: 25 November 2026',
      'Against tax invoice: OP/26-27/00123 dated 20 November 2026',
      'Reason: Duplicate payment',
      'Recipient: Asha Buyer',
      'Place of supply: Karnataka (29)',
      'Taxable value: Rs. 847.46',
      'CGST @ 9%: Rs. 76.27',
      'SGST @ 9%: Rs. 76.27',
      'Total: Rs. 1,000.00',
      'Rupees One Thousand Only',
    ]) {
      expect(text).toContain(field);
    }
    expect(text).not.toContain('TAX INVOICE');
  });
});
