// The one error catalogue. Every error a client can see has a stable id (the `error` field of ErrorResponse), an
// HTTP status and a default message; code throws `new AppError('email_taken')` (optionally with a more precise
// message or the offending field) and the error middleware renders it. Anything that is not an AppError is an
// internal error: logged with the request id, shown to the client only as a generic 500.
import type { ZodError } from 'zod';

export const ERROR_CATALOGUE = {
  validation_failed: { status: 400, message: 'The request is invalid.' },
  malformed_json: { status: 400, message: 'The request body is not valid JSON.' },
  unauthenticated: { status: 401, message: 'Please sign in.' },
  invalid_credentials: { status: 401, message: 'Invalid credentials' },
  session_expired: { status: 401, message: 'Your session has ended. Please sign in again.' },
  wrong_password: { status: 400, message: 'The current password is not correct.' },
  forbidden: { status: 403, message: 'You do not have permission to do this.' },
  admin_required: { status: 403, message: 'This account is not an admin account.' },
  account_disabled: { status: 403, message: 'This account is disabled. Please contact support.' },
  not_found: { status: 404, message: 'Not found.' },
  user_not_found: { status: 404, message: 'No user with this e-mail address.' },
  email_taken: { status: 409, message: 'An account with this e-mail address already exists.' },
  admin_exists: {
    status: 409,
    message: 'An admin already exists. Ask an admin to grant admin rights instead.',
  },
  already_admin: { status: 409, message: 'This user is already an admin.' },
  invalid_reset_token: {
    status: 400,
    message: 'This reset link is invalid or has expired. Please request a new one.',
  },
  invalid_image: { status: 400, message: 'The file must be a PNG, JPEG or WebP image of at most 1 MB.' },
  utr_used: { status: 409, message: 'This UTR has already been used for a payment.' },
  payment_request_pending: {
    status: 409,
    message: 'You already have a payment under review. Please wait for it to be checked.',
  },
  payment_request_reviewed: { status: 409, message: 'This payment request has already been reviewed.' },
  already_active: { status: 409, message: "This user's subscription is already active." },
  admin_not_customer: { status: 409, message: 'Admins are not customers: they have no subscription.' },
  payment_not_refundable: { status: 409, message: 'Nothing of this payment is left to refund.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Send the request body as JSON.' },
  rate_limited: { status: 429, message: 'Too many attempts. Please try again later.' },
  broker_login_invalid: {
    status: 400,
    message: 'This broker login has expired or was already used. Press Connect to try again.',
  },
  broker_failed: { status: 502, message: 'The broker refused the request.' },
  broker_not_blocked: { status: 409, message: 'Orders to your broker are not blocked.' },
  broker_not_connected: {
    status: 409,
    message: 'Connect your broker (a valid session for today) before switching to Live.',
  },
  notification_channel_unavailable: {
    status: 409,
    message: 'This notification channel is not set up on this server.',
  },
  internal: { status: 500, message: 'Something went wrong on our side.' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorId = keyof typeof ERROR_CATALOGUE;

export interface AppErrorOptions {
  message?: string;
  field?: string;
  /** seconds, sent as Retry-After (429/503) */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** An error a client may see: id and status from the catalogue, message overridable per occurrence. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly id: ErrorId;
  readonly status: number;
  readonly field: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(id: ErrorId, options: AppErrorOptions = {}) {
    super(options.message ?? ERROR_CATALOGUE[id].message, { cause: options.cause });
    this.id = id;
    this.status = ERROR_CATALOGUE[id].status;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Field name of an issue path: `email`, `notifications.push`, or `body` when the whole body is wrong. */
function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? 'body' : path.map(String).join('.');
}

/** Turns the first zod issue into a 400 whose message names the field ("email: email must be a valid …"). */
export function validationError(error: ZodError, root = 'body'): AppError {
  const issue = error.issues[0];
  if (!issue) return new AppError('validation_failed');
  const field = issue.path.length === 0 ? root : fieldOf(issue.path);
  return new AppError('validation_failed', { message: `${field}: ${issue.message}`, field });
}
