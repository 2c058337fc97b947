// Spec §5 "Password reset" rules, checked in the spec's order; the first failing rule is the message shown.
import { passwordSchema } from '@optionpilot/server/contract';
import { MESSAGES } from './messages';

export interface ResetPasswordInput {
  token: string | null;
  newPassword: string;
  confirmPassword: string;
}

/** The first validation message for a reset form, or null when it may be sent. */
export function validateResetPassword({
  token,
  newPassword,
  confirmPassword,
}: ResetPasswordInput): string | null {
  if (!token) return MESSAGES.tokenMissing;
  if (!newPassword || !confirmPassword) return MESSAGES.fillAllFields;
  if (newPassword !== confirmPassword) return MESSAGES.passwordsDoNotMatch;
  // The server's own schema: length, then lowercase, uppercase and digit, in that order (and the digit rule works,
  // unlike the first version's escaped pattern — decisions.md).
  const parsed = passwordSchema.safeParse(newPassword);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? MESSAGES.resetFailed);
}
