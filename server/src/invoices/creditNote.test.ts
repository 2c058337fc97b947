// A payment's credit notes split like its invoice and, refund after refund, add up to it to the paisa.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InvoiceRow } from '../db';
import { creditNoteHeads } from './creditNote';

const intraState = {
  taxable_paise: 499_900,
  cgst_rate_bp: 900,
  cgst_paise: 44_991,
  sgst_rate_bp: 900,
  sgst_paise: 44_991,
  igst_rate_bp: 0,
  igst_paise: 0,
  total_paise: 589_882,
} as InvoiceRow;

const interState = {
  ...intraState,
  cgst_rate_bp: 0,
  cgst_paise: 0,
  sgst_rate_bp: 0,
  sgst_paise: 0,
  igst_rate_bp: 1800,
  igst_paise: 89_982,
} as InvoiceRow;

describe('creditNoteHeads', () => {
  it('returns the whole invoice for a full refund', () => {
    expect(creditNoteHeads(intraState, [], 589_882)).toEqual({
      taxable_paise: 499_900,
      cgst_paise: 44_991,
      sgst_paise: 44_991,
      igst_paise: 0,
      total_paise: 589_882,
    });
  });

  it('splits a partial refund at the invoice rate in the invoice regime', () => {
    expect(creditNoteHeads(intraState, [], 100_000)).toEqual({
      taxable_paise: 84_746,
      cgst_paise: 7_627,
      sgst_paise: 7_627,
      igst_paise: 0,
      total_paise: 100_000,
    });
    expect(creditNoteHeads(interState, [], 100_000)).toMatchObject({ cgst_paise: 0, igst_paise: 15_254 });
  });

  it('refuses more than is left', () => {
    const first = creditNoteHeads(intraState, [], 500_000);
    expect(() => creditNoteHeads(intraState, [first], 89_883)).toThrow(RangeError);
  });

  it('adds up to the invoice, head by head, for any sequence of refunds that returns everything', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 8 }),
        (inter, parts) => {
          const invoice = inter ? interState : intraState;
          const notes: ReturnType<typeof creditNoteHeads>[] = [];
          let left = invoice.total_paise;
          for (const part of parts) {
            const amount = Math.min(part, left);
            if (amount === 0) break;
            notes.push(creditNoteHeads(invoice, notes, amount));
            left -= amount;
          }
          if (left > 0) notes.push(creditNoteHeads(invoice, notes, left));
          const sum = (k: keyof (typeof notes)[number]) => notes.reduce((a, n) => a + n[k], 0);
          expect(sum('total_paise')).toBe(invoice.total_paise);
          expect(sum('taxable_paise')).toBe(invoice.taxable_paise);
          expect(sum('cgst_paise')).toBe(invoice.cgst_paise);
          expect(sum('sgst_paise')).toBe(invoice.sgst_paise);
          expect(sum('igst_paise')).toBe(invoice.igst_paise);
          for (const n of notes) {
            expect(n.taxable_paise + n.cgst_paise + n.sgst_paise + n.igst_paise).toBe(n.total_paise);
            expect(
              Math.min(n.taxable_paise, n.cgst_paise, n.sgst_paise, n.igst_paise),
            ).toBeGreaterThanOrEqual(0);
          }
        },
      ),
    );
  });
});
