import { describe, expect, it } from 'vitest';
import { makeAdminUser } from '../test/userSamples';
import { buildUserPatch, fromIstDay, initialUserForm, toIstDay } from './userForm';

describe('user edit form', () => {
  const user = makeAdminUser({ subscriptionEndDate: '2026-04-01T18:30:00.000Z' });

  it('converts between IST days and instants', () => {
    expect(toIstDay('2026-04-01T18:30:00.000Z')).toBe('2026-04-02');
    expect(fromIstDay('2026-04-02')).toBe('2026-04-01T18:30:00.000Z');
    expect(fromIstDay('')).toBeNull();
  });

  it('sends only the changed fields', () => {
    const form = { ...initialUserForm(user), lastName: 'Iyer', subscriptionEndDate: '2026-05-02' };
    expect(buildUserPatch(user, form)).toEqual({
      ok: true,
      body: { lastName: 'Iyer', subscriptionEndDate: '2026-05-01T18:30:00.000Z' },
    });
  });

  it('replaces broker key and secret together and names a missing one', () => {
    const form = { ...initialUserForm(user), brokerType: 'zerodha', brokerApiKey: 'kite-key' };
    const result = buildUserPatch(user, form);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.brokerApiSecret).toBeTruthy();
  });

  it('checks a recorded payment with the server rules', () => {
    const form = {
      ...initialUserForm(user),
      utrNumber: '1234',
      amountRupees: '5898.82',
      paymentDate: '2026-03-02',
    };
    const result = buildUserPatch(user, form);
    expect(!result.ok && result.errors.paymentDetails).toBe('paymentDetails.utrNumber must be 12 digits');
    const good = buildUserPatch(user, { ...form, utrNumber: '123456789012' });
    expect(good.ok && good.body.paymentDetails).toEqual({
      utrNumber: '123456789012',
      paymentMethod: 'upi',
      amountPaise: 589_882,
      paymentDate: '2026-03-01T18:30:00.000Z',
    });
  });

  it('refuses a patch that changes nothing', () => {
    expect(buildUserPatch(user, initialUserForm(user)).ok).toBe(false);
  });
});
