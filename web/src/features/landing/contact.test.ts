import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { CONTACT_LIMITS, sendContactMessage, validateContact } from './contact';

describe('validateContact', () => {
  it('accepts a complete message', () => {
    expect(validateContact({ name: 'Asha', email: 'asha@example.in', message: 'Hi' })).toEqual({});
  });

  it.each(['asha', 'asha@', '@example.in', 'asha@example', 'as ha@example.in'])(
    'rejects the e-mail %s',
    (email) => {
      expect(validateContact({ name: 'Asha', email, message: 'Hi' })).toEqual({
        email: 'Enter a valid email address',
      });
    },
  );

  it('enforces the server limits on name and message length', () => {
    const errors = validateContact({
      name: 'a'.repeat(CONTACT_LIMITS.name + 1),
      email: 'asha@example.in',
      message: 'm'.repeat(CONTACT_LIMITS.message + 1),
    });
    expect(errors.name).toMatch(/at most 120/);
    expect(errors.message).toMatch(/at most 5000/);
    expect(
      validateContact({
        name: 'a'.repeat(CONTACT_LIMITS.name),
        email: 'asha@example.in',
        message: 'm'.repeat(CONTACT_LIMITS.message),
      }),
    ).toEqual({});
  });
});

describe('sendContactMessage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('rejects with the status line when the error body is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>().mockResolvedValue(new Response('', { status: 502, statusText: 'Bad Gateway' })),
    );
    const sending = sendContactMessage({ name: 'Asha', email: 'asha@example.in', message: 'Hi' });
    await expect(sending).rejects.toBeInstanceOf(ApiError);
    await expect(sending).rejects.toThrow('502: Bad Gateway');
  });
});
