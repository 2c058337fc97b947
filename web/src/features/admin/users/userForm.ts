// The Edit dialog's form model: what is shown, and the PATCH body of only the fields that changed.
import { parseRupeesToPaise } from '@optionpilot/engine/money';
import { patchUserSchema, type AdminUserDto, type PatchUserRequest } from '@optionpilot/server/contract';
import { fieldErrorsOf, type FieldErrors } from '../../../lib/fieldErrors';

export interface UserFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  subscriptionStatus: AdminUserDto['subscriptionStatus'];
  /** YYYY-MM-DD in IST, '' for none */
  subscriptionStartDate: string;
  subscriptionEndDate: string;
  brokerType: string;
  brokerApiKey: string;
  brokerApiSecret: string;
  /** a payment received outside the gateway; all four or none */
  utrNumber: string;
  paymentMethod: 'upi' | 'bank_transfer';
  /** rupees as typed */
  amountRupees: string;
  paymentDate: string;
}

export const USER_FORM_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'subscriptionStatus',
  'subscriptionStartDate',
  'subscriptionEndDate',
  'brokerType',
  'brokerApiKey',
  'brokerApiSecret',
  'paymentDetails',
] as const;
export type UserFormField = (typeof USER_FORM_FIELDS)[number];

const istDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' });

/** ISO instant → its IST calendar day (YYYY-MM-DD), '' for none. */
export function toIstDay(iso: string | null): string {
  return iso ? istDay.format(new Date(iso)) : '';
}

/** IST calendar day → the ISO instant of its midnight in IST, null for ''. */
export function fromIstDay(day: string): string | null {
  return day ? new Date(`${day}T00:00:00+05:30`).toISOString() : null;
}

export function initialUserForm(user: AdminUserDto): UserFormValues {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    subscriptionStatus: user.subscriptionStatus,
    subscriptionStartDate: toIstDay(user.subscriptionStartDate),
    subscriptionEndDate: toIstDay(user.subscriptionEndDate),
    brokerType: user.brokerType ?? '',
    brokerApiKey: '',
    brokerApiSecret: '',
    utrNumber: '',
    paymentMethod: 'upi',
    amountRupees: '',
    paymentDate: '',
  };
}

export type PatchResult =
  { ok: true; body: PatchUserRequest } | { ok: false; errors: FieldErrors<UserFormField> };

/** The PATCH of what changed, checked by the server's own schema so both sides use the same words. */
export function buildUserPatch(user: AdminUserDto, form: UserFormValues): PatchResult {
  const before = initialUserForm(user);
  const body: Record<string, unknown> = {};
  for (const key of ['firstName', 'lastName', 'email', 'phone', 'subscriptionStatus'] as const) {
    if (form[key] !== before[key]) body[key] = form[key];
  }
  for (const key of ['subscriptionStartDate', 'subscriptionEndDate'] as const) {
    if (form[key] !== before[key]) body[key] = fromIstDay(form[key]);
  }
  if (form.brokerApiKey || form.brokerApiSecret) {
    body.brokerType = form.brokerType;
    body.brokerApiKey = form.brokerApiKey;
    body.brokerApiSecret = form.brokerApiSecret;
  }
  if (form.utrNumber || form.amountRupees || form.paymentDate) {
    body.paymentDetails = {
      utrNumber: form.utrNumber,
      paymentMethod: form.paymentMethod,
      amountPaise: parseRupeesToPaise(form.amountRupees),
      paymentDate: fromIstDay(form.paymentDate) ?? '',
    };
  }
  const parsed = patchUserSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrorsOf(parsed.error, USER_FORM_FIELDS) };
  return { ok: true, body: body as PatchUserRequest };
}
