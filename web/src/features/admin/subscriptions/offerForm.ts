// The offer form's model (Add and Edit): what the admin types, and the POST body or the PATCH of only the fields
// that changed, checked by the server's own schemas. Validity is shown as IST calendar days: "from" is the start of
// its day, "until" includes its whole day (the server stores the first instant after it, UTC).
import { paiseToRupees, parseRupeesToPaise } from '@optionpilot/engine/money';
import {
  offerSchema,
  patchOfferSchema,
  type AdminOfferDto,
  type PatchOfferRequest,
  type NewOfferRequest,
} from '@optionpilot/server/contract';
import { fieldErrorsOf, type FieldErrors } from '../../../lib/fieldErrors';
import { fromIstDay, toIstDay } from '../users/userForm';

const DAY_MS = 86_400_000;

export interface OfferFormValues {
  name: string;
  code: string;
  discountKind: 'percent' | 'amount';
  /** as typed */
  discountPercent: number | string;
  /** rupees as typed ("500" or "1,250.50") */
  discountRupees: string;
  /** '' = every plan */
  planCode: string;
  /** YYYY-MM-DD in IST, '' for none */
  validFrom: string;
  validUntil: string;
  /** '' = unlimited */
  maxUsers: number | string;
  active: boolean;
}

export const OFFER_FORM_FIELDS = [
  'name',
  'code',
  'discountPercent',
  'discountAmountPaise',
  'planCode',
  'validFrom',
  'validTill',
  'maxUsers',
  'active',
] as const;
export type OfferFormField = (typeof OFFER_FORM_FIELDS)[number];

/** The IST day after which an offer ends → the first instant it no longer applies (next IST midnight), or null. */
export function untilIstDay(day: string): string | null {
  const start = fromIstDay(day);
  return start === null ? null : new Date(Date.parse(start) + DAY_MS).toISOString();
}

/** The first instant an offer no longer applies → the last IST day it applies, '' for none. */
export function lastIstDay(validTill: string | null): string {
  return validTill ? toIstDay(new Date(Date.parse(validTill) - 1).toISOString()) : '';
}

/** A new offer's form: the spec's defaults (10 %, valid 30 days, 50 users), starting today. */
export function newOfferForm(now: number): OfferFormValues {
  return {
    name: '',
    code: '',
    discountKind: 'percent',
    discountPercent: 10,
    discountRupees: '',
    planCode: '',
    validFrom: toIstDay(new Date(now).toISOString()),
    validUntil: toIstDay(new Date(now + 29 * DAY_MS).toISOString()),
    maxUsers: 50,
    active: true,
  };
}

export function offerFormOf(offer: AdminOfferDto): OfferFormValues {
  return {
    name: offer.name,
    code: offer.code ?? '',
    discountKind: offer.discountAmountPaise === null ? 'percent' : 'amount',
    discountPercent: offer.discountPercent ?? 10,
    discountRupees:
      offer.discountAmountPaise === null ? '' : paiseToRupees(offer.discountAmountPaise).toFixed(2),
    planCode: offer.planCode ?? '',
    validFrom: toIstDay(offer.validFrom),
    validUntil: lastIstDay(offer.validTill),
    maxUsers: offer.maxUsers ?? '',
    active: offer.active,
  };
}

/** Every field of the form as the API names it. */
function wireFields(form: OfferFormValues) {
  return {
    name: form.name,
    code: form.code,
    ...(form.discountKind === 'percent'
      ? {
          discountPercent: typeof form.discountPercent === 'number' ? form.discountPercent : Number.NaN,
        }
      : { discountAmountPaise: parseRupeesToPaise(form.discountRupees) }),
    planCode: form.planCode === '' ? null : form.planCode,
    validFrom: fromIstDay(form.validFrom),
    validTill: untilIstDay(form.validUntil),
    maxUsers: typeof form.maxUsers === 'number' ? form.maxUsers : null,
    active: form.active,
  };
}

export type OfferBodyResult<B> = { ok: true; body: B } | { ok: false; errors: FieldErrors<OfferFormField> };

/** The POST body of a new offer. */
export function buildNewOffer(form: OfferFormValues): OfferBodyResult<NewOfferRequest> {
  const body = wireFields(form);
  const parsed = offerSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrorsOf(parsed.error, OFFER_FORM_FIELDS) };
  return { ok: true, body };
}

/** The PATCH of what changed on `offer`; null when nothing did. */
export function buildOfferPatch(
  offer: AdminOfferDto,
  form: OfferFormValues,
): OfferBodyResult<PatchOfferRequest> | null {
  const before: Record<string, unknown> = wireFields(offerFormOf(offer));
  const after: Record<string, unknown> = wireFields(form);
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (!Object.is(before[key], value) || !(key in before)) body[key] = value;
  }
  // A switch of discount kind sends the new kind's field only (the server drops the other).
  if (Object.keys(body).length === 0) return null;
  const parsed = patchOfferSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrorsOf(parsed.error, OFFER_FORM_FIELDS) };
  return { ok: true, body: body as PatchOfferRequest };
}
