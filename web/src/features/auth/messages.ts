// The user-facing texts of spec §5 and §8 for the auth screens, in one place so tests and screens agree.
import { ApiError } from '../../api/client';

export const MESSAGES = {
  loginSuccess: 'Logged in successfully',
  loginFailedTitle: 'Error',
  loginFailed: 'Login failed',
  invalidCredentials: 'Invalid credentials',
  signupSuccess: 'Account created successfully',
  signupFailedTitle: 'Error',
  signupFailed: 'Failed to create account',
  acceptTerms: 'Please accept the terms and conditions',
  adminLoginFailedTitle: 'Admin Login Failed',
  authenticationFailed: 'Authentication failed',
  resetRequestFailedTitle: 'Failed to request password reset',
  invalidServerResponse: 'Invalid response from server',
  resetFailedTitle: 'Password Reset Failed',
  resetFailed: 'Failed to reset password',
  resetSucceededTitle: 'Password Reset Successful',
  tokenMissing: 'Reset token is missing. Please use the link from your email.',
  fillAllFields: 'Please fill in all fields',
  passwordsDoNotMatch: 'Passwords do not match',
} as const;

/** The inputs of the sign-in forms (user and admin), in the order their messages are looked up. */
export const LOGIN_FIELDS = ['email', 'password'] as const;
export type LoginField = (typeof LOGIN_FIELDS)[number];

/**
 * Login failure text (spec §8): a 401 reads "Invalid credentials" (the first version showed "401: …" and mapped
 * it); any other failure shows its own message; no message at all reads "Login failed".
 */
export function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return MESSAGES.invalidCredentials;
  if (error instanceof Error && error.message) return error.message;
  return MESSAGES.loginFailed;
}
