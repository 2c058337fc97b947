import { describe, expect, it } from 'vitest';
import { numberInWords, rupeesInWords, splitGst, taxableOfInclusive } from './tax';

describe('splitGst', () => {
  it('splits into CGST + SGST in the supplier state, the odd paisa to SGST', () => {
    expect(
      splitGst({ gstPaise: 89_983, rateBp: 1800, supplierStateCode: '29', placeOfSupply: '29' }),
    ).toEqual({
      cgstRateBp: 900,
      cgstPaise: 44_991,
      sgstRateBp: 900,
      sgstPaise: 44_992,
      igstRateBp: 0,
      igstPaise: 0,
    });
  });

  it('charges IGST across states', () => {
    expect(
      splitGst({ gstPaise: 89_982, rateBp: 1800, supplierStateCode: '29', placeOfSupply: '27' }),
    ).toMatchObject({
      cgstPaise: 0,
      sgstPaise: 0,
      igstRateBp: 1800,
      igstPaise: 89_982,
    });
  });
});

describe('taxableOfInclusive', () => {
  it('recovers the plan price from the GST-inclusive total', () => {
    expect(taxableOfInclusive(589_882, 1800)).toBe(499_900);
  });
  it('rounds to the nearest paisa', () => {
    // 100 / 1.18 = 84.745… → 85
    expect(taxableOfInclusive(100, 1800)).toBe(85);
  });
});

describe('amount in words', () => {
  it('uses lakh and crore', () => {
    expect(numberInWords(589_882)).toBe('Five Lakh Eighty Nine Thousand Eight Hundred Eighty Two');
    expect(numberInWords(12_300_000)).toBe('One Crore Twenty Three Lakh');
    expect(numberInWords(0)).toBe('Zero');
  });
  it('writes rupees and paise', () => {
    expect(rupeesInWords(589_882)).toBe(
      'Rupees Five Thousand Eight Hundred Ninety Eight and Eighty Two Paise Only',
    );
    expect(rupeesInWords(100_000)).toBe('Rupees One Thousand Only');
  });
});
