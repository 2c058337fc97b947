import { describe, expect, it } from 'vitest';
import type { AdminOfferDto } from '@optionpilot/server/contract';
import { buildOfferPatch, lastIstDay, offerFormOf, untilIstDay } from './offerForm';

const OFFER: AdminOfferDto = {
  id: 3,
  name: 'Flat',
  code: 'FLAT500',
  discountPercent: null,
  discountAmountPaise: 50_000,
  planCode: 'monthly',
  validFrom: '2026-10-31T18:30:00.000Z',
  validTill: '2026-11-30T18:30:00.000Z',
  maxUsers: null,
  usedCount: 2,
  active: true,
  createdAt: '2026-10-01T00:00:00.000Z',
};

describe('offer validity in IST days', () => {
  it('"until 30 Nov" ends at the first instant of 1 Dec IST, and reads back as 30 Nov', () => {
    expect(untilIstDay('2026-11-30')).toBe('2026-11-30T18:30:00.000Z');
    expect(lastIstDay('2026-11-30T18:30:00.000Z')).toBe('2026-11-30');
    expect(untilIstDay('')).toBeNull();
    expect(lastIstDay(null)).toBe('');
  });
});

describe('buildOfferPatch', () => {
  it('reads a fixed-amount offer back into the form and sends nothing when nothing changed', () => {
    const form = offerFormOf(OFFER);
    expect(form).toMatchObject({
      discountKind: 'amount',
      discountRupees: '500.00',
      validFrom: '2026-11-01',
      validUntil: '2026-11-30',
      maxUsers: '',
    });
    expect(buildOfferPatch(OFFER, form)).toBeNull();
  });

  it('switching to a percentage sends the percentage only; a bad amount names discountAmountPaise', () => {
    const form = offerFormOf(OFFER);
    expect(buildOfferPatch(OFFER, { ...form, discountKind: 'percent', discountPercent: 12.5 })).toEqual({
      ok: true,
      body: { discountPercent: 12.5 },
    });
    const bad = buildOfferPatch(OFFER, { ...form, discountRupees: '5.555' });
    expect(bad).toMatchObject({ ok: false, errors: { discountAmountPaise: expect.any(String) } });
  });
});
