import { describe, expect, it } from 'vitest';
import { loginSchema } from '@optionpilot/server/contract';
import { fieldErrorsOf } from './fieldErrors';

describe('fieldErrorsOf', () => {
  it('keeps the first message of each listed field', () => {
    const error = {
      issues: [
        { path: ['email'], message: 'first' },
        { path: ['email'], message: 'second' },
        { path: ['password'], message: 'too short' },
      ],
    };
    expect(fieldErrorsOf(error, ['email', 'password'])).toEqual({ email: 'first', password: 'too short' });
  });

  it('leaves out issues on unlisted fields or on no field at all', () => {
    const error = {
      issues: [
        { path: [], message: 'form-level' },
        { path: ['other'], message: 'not an input' },
        { path: ['email'], message: 'bad e-mail' },
      ],
    };
    expect(fieldErrorsOf(error, ['email'])).toEqual({ email: 'bad e-mail' });
  });

  it('reads a real zod error of the server schema', () => {
    const parsed = loginSchema.safeParse({ email: 'not-an-email', password: '' });
    if (parsed.success) throw new Error('expected the schema to reject the input');
    const errors = fieldErrorsOf(parsed.error, ['email', 'password']);
    expect(Object.keys(errors).sort()).toEqual(['email', 'password']);
    expect(errors.email).toBe(parsed.error.issues.find((i) => i.path[0] === 'email')?.message);
  });
});
