import { describe, expect, it } from 'vitest';
import { validateResetPassword } from './resetPasswordValidation';

const ok = { token: 'abc123', newPassword: 'Secret123', confirmPassword: 'Secret123' };

describe('validateResetPassword (spec §5, in order)', () => {
  it('accepts a valid token and matching strong passwords', () => {
    expect(validateResetPassword(ok)).toBeNull();
  });

  it('asks for the e-mailed link first when the token is missing, whatever else is wrong', () => {
    const expected = 'Reset token is missing. Please use the link from your email.';
    expect(validateResetPassword({ ...ok, token: null })).toBe(expected);
    expect(validateResetPassword({ token: '', newPassword: '', confirmPassword: 'x' })).toBe(expected);
  });

  it('requires both fields', () => {
    expect(validateResetPassword({ ...ok, newPassword: '' })).toBe('Please fill in all fields');
    expect(validateResetPassword({ ...ok, confirmPassword: '' })).toBe('Please fill in all fields');
  });

  it('checks the match before the strength', () => {
    expect(validateResetPassword({ ...ok, newPassword: 'a', confirmPassword: 'b' })).toBe(
      'Passwords do not match',
    );
  });

  it('requires at least 8 characters', () => {
    expect(validateResetPassword({ ...ok, newPassword: 'Ab1', confirmPassword: 'Ab1' })).toBe(
      'Password must be at least 8 characters long',
    );
  });

  it('requires a lowercase letter, then an uppercase letter, then a number', () => {
    const check = (password: string) =>
      validateResetPassword({ ...ok, newPassword: password, confirmPassword: password });
    expect(check('ABCDEFG1')).toBe('Password must contain at least one lowercase letter');
    expect(check('abcdefg1')).toBe('Password must contain at least one uppercase letter');
    expect(check('Abcdefgh')).toBe('Password must contain at least one number');
    // Both lowercase and number missing: the lowercase rule comes first.
    expect(check('ABCDEFGH')).toBe('Password must contain at least one lowercase letter');
  });

  it('accepts a digit anywhere (the first version escaped its pattern and missed digits)', () => {
    expect(validateResetPassword({ ...ok, newPassword: '9zzzzzzZ', confirmPassword: '9zzzzzzZ' })).toBeNull();
  });
});
