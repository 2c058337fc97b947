// Admin contract: payments, revenue and the UPI payment-request flow. Money: `*Paise` fields are integer paise;
// a plain `amount` is rupees (spec). Times are ISO-8601 UTC strings.
import { z } from 'zod';
import type { SuccessResponse } from '../dto';
import type { PlanDto } from '../user';
import { plainText } from '../text';
import { type PageDto, type UserRefDto, listQuerySchema } from './listing';
import { PAYMENT_METHODS } from './users';

// --------------------------------------------------------------------------------------------- payments, revenue

/** `GET /api/admin/payments` (revenue page): received payments and manual requests in one list. */
export const paymentsQuerySchema = listQuerySchema.extend({
  status: z
    .enum(['all', 'approved', 'pending', 'rejected'], {
      error: 'status must be all, approved, pending or rejected',
    })
    .default('all'),
  method: z
    .enum(PAYMENT_METHODS, { error: `method must be one of ${PAYMENT_METHODS.join(', ')}` })
    .optional(),
});

export interface AdminPaymentDto {
  /** `payment-<id>` or `request-<id>`: unique across both kinds */
  key: string;
  kind: 'payment' | 'request';
  paymentId: number | null;
  paymentRequestId: number | null;
  user: UserRefDto;
  method: (typeof PAYMENT_METHODS)[number];
  status: 'approved' | 'pending' | 'rejected' | 'refunded' | 'failed';
  amount: number;
  amountPaise: number;
  utrNumber: string | null;
  planCode: string | null;
  at: string;
  isTest: boolean;
  /** paise refunded or being refunded (payments only; 0 for requests) */
  refundedPaise: number;
}

export interface AdminPaymentsResponse extends PageDto<AdminPaymentDto> {
  /**
   * Over every row matching the filters; test users excluded. gross: payments received (including those refunded
   * since); refunded: what was refunded of those payments (processed refunds); net = gross − refunded; average:
   * gross per payment received; count: every matching row.
   */
  totals: {
    grossPaise: number;
    refundedPaise: number;
    netPaise: number;
    pendingPaise: number;
    count: number;
    averagePaise: number;
  };
}

// ------------------------------------------------------------------------------ revenue by month, GST register

/** Longest range `GET /api/admin/revenue/summary` and the CSV export take. */
export const REVENUE_MONTHS_MAX = 36;

const monthOf = (field: string) =>
  z
    .string({ error: `${field} must be a month like 2026-11` })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, `${field} must be a month like 2026-11`);

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

/**
 * `GET /api/admin/revenue/summary` and `GET /api/admin/revenue/gst-register.csv`: IST calendar months, both ends
 * included. Defaults: `to` = this month, `from` = 11 months before `to` (a year).
 */
export const revenueRangeQuerySchema = z
  .object({ from: monthOf('from').optional(), to: monthOf('to').optional() })
  .strict()
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'to must not be before from',
    path: ['to'],
  })
  .refine(
    (q) =>
      q.from === undefined ||
      q.to === undefined ||
      monthIndex(q.to) - monthIndex(q.from) < REVENUE_MONTHS_MAX,
    { message: `from: at most ${REVENUE_MONTHS_MAX} months at a time`, path: ['from'] },
  );

/**
 * One month's money and tax. gross/refunds/net: payments received and refunds processed in the month, test
 * accounts left out (as every revenue figure). taxable/CGST/SGST/IGST: the month's tax invoices less its credit
 * notes, every document (the GST owed on what was issued; the same documents as the CSV register).
 */
export interface RevenueFiguresDto {
  grossPaise: number;
  refundsPaise: number;
  netPaise: number;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  invoiceCount: number;
  creditNoteCount: number;
}
export interface RevenueMonthDto extends RevenueFiguresDto {
  /** IST calendar month, e.g. 2026-11 */
  month: string;
}
export interface RevenueSummaryResponse {
  from: string;
  to: string;
  /** every month of the range, oldest first (months with nothing are zeros) */
  months: RevenueMonthDto[];
  totals: RevenueFiguresDto;
}

export const PAYMENT_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;

export interface PaymentRequestDto {
  id: number;
  amount: number;
  amountPaise: number;
  utrNumber: string;
  method: 'upi' | 'bank_transfer';
  status: (typeof PAYMENT_REQUEST_STATUSES)[number];
  createdAt: string;
  approvedAt: string | null;
  reviewedAt: string | null;
  adminNotes: string | null;
  /** URL of the screenshot (`GET /api/payment-requests/:id/screenshot`), null when none was sent */
  paymentScreenshot: string | null;
  plan: { code: string; name: string; months: number } | null;
  user: UserRefDto;
}

/** `GET /api/admin/payment-requests` → PageDto<PaymentRequestDto> */
export const paymentRequestsQuerySchema = listQuerySchema.extend({
  status: z
    .enum(['all', ...PAYMENT_REQUEST_STATUSES], {
      error: 'status must be all, pending, approved or rejected',
    })
    .default('all'),
});

/** `PATCH /api/admin/payment-requests/:id`: a rejection needs a note, which the trader sees. */
export const reviewPaymentRequestSchema = z
  .object({
    status: z.enum(['approved', 'rejected'], { error: 'Please select a status for the payment request' }),
    adminNotes: plainText(
      z.string().trim().max(1000, 'adminNotes must be at most 1000 characters'),
      'adminNotes',
      { multiline: true },
    ).optional(),
  })
  .refine((b) => b.status !== 'rejected' || (b.adminNotes ?? '').length > 0, {
    message: 'adminNotes are required when rejecting, so the trader knows why',
    path: ['adminNotes'],
  });
export interface PaymentRequestResponse extends SuccessResponse {
  request: PaymentRequestDto;
}

/**
 * Images (the UPI QR code, payment screenshots) are checked by their bytes (PNG, JPEG or WebP, ≤ 1 MB), never by
 * their name or declared type, and served back with the detected type. Two ways to send one: the raw file as the
 * body of a `PUT …/qr` or `PUT …/screenshot` (any Content-Type but JSON; up to 1 MB), or, as the spec does, a
 * base64 data URL inside the JSON body (then the JSON body limit, 1 MB by default, caps it near 750 KB).
 */
export const IMAGE_MAX_BYTES = 1_048_576;
export const imageDataUrlSchema = (field: string) =>
  z
    .string({ error: `${field} must be an image data URL` })
    .max(1_500_000, `${field} must be at most 1 MB`)
    .regex(/^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/=\s]+$/, `${field} must be a base64 image data URL`);

/** `GET /api/upi-settings` (any signed-in user); null fields until an admin saves them. */
export interface UpiSettingsDto {
  configured: boolean;
  upiId: string | null;
  accountHolderName: string | null;
  /** URL of the QR image (`GET /api/upi-settings/qr`), served with the detected image type */
  qrCodeImage: string | null;
  updatedAt: string | null;
}

/**
 * `POST /api/upi-settings` (admins). qrCodeImage: a new image as a data URL, null to remove it, omitted to keep
 * it. `PUT /api/upi-settings/qr` (admins) takes the raw image file as the body and answers UpiSettingsResponse;
 * `GET /api/upi-settings/qr` serves it to signed-in users.
 */
export const upiSettingsSchema = z.object({
  upiId: z
    .string({ error: 'upiId is required' })
    .trim()
    .min(1, 'upiId is required')
    .max(100, 'upiId is too long')
    .regex(/^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}$/, 'upiId must look like name@handle'),
  accountHolderName: plainText(
    z
      .string({ error: 'accountHolderName is required' })
      .trim()
      .min(1, 'accountHolderName is required')
      .max(200, 'accountHolderName is too long'),
    'accountHolderName',
  ),
  qrCodeImage: imageDataUrlSchema('qrCodeImage').nullable().optional(),
});
export interface UpiSettingsResponse extends SuccessResponse {
  settings: UpiSettingsDto;
}

/**
 * `POST /api/payment/upi-request` (trader): the amount comes from the plan incl. GST, never from the body. The
 * screenshot may come inside as a data URL, or afterwards as the raw file body of
 * `PUT /api/payment-requests/:id/screenshot` (the owner, while pending) → UpiRequestResponse.
 * `GET /api/payment-requests/:id/screenshot` serves it to the owner and admins.
 */
export const upiRequestSchema = z.object({
  planCode: z.string().trim().min(1).max(40).optional(),
  utrNumber: z
    .string({ error: 'utrNumber is required' })
    .trim()
    .regex(/^\d{12}$/, 'utrNumber must be the 12-digit UTR of the transfer'),
  paymentScreenshot: imageDataUrlSchema('paymentScreenshot').optional(),
});

/** `GET /api/payment/upi-request` (trader): what to pay and the caller's requests, newest first. */
export interface UpiPaymentInfoDto {
  upi: UpiSettingsDto;
  plan: PlanDto;
  /** exactly what to transfer, GST included */
  amountPaise: number;
  requests: PaymentRequestDto[];
  /** true while a request waits for review: the dashboard shows "Payment under review" */
  pending: boolean;
}
export interface UpiRequestResponse extends SuccessResponse {
  request: PaymentRequestDto;
}

/** `GET /api/bank-details` (any signed-in user, for bank transfers); null fields until an admin saves them. */
export interface BankDetailsDto {
  configured: boolean;
  accountHolderName: string | null;
  accountNumber: string | null;
  ifsc: string | null;
  bankName: string | null;
  branch: string | null;
  updatedAt: string | null;
}

/** `POST /api/admin/bank-details` → { success, message, bankDetails: BankDetailsDto } */
export const bankDetailsSchema = z.object({
  accountHolderName: plainText(
    z
      .string({ error: 'accountHolderName is required' })
      .trim()
      .min(1, 'accountHolderName is required')
      .max(200, 'accountHolderName is too long'),
    'accountHolderName',
  ),
  accountNumber: z
    .string({ error: 'accountNumber is required' })
    .trim()
    .regex(/^\d{9,18}$/, 'accountNumber must be 9 to 18 digits'),
  ifsc: z
    .string({ error: 'ifsc is required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'ifsc must look like HDFC0001234'),
  bankName: plainText(
    z.string({ error: 'bankName is required' }).trim().min(1, 'bankName is required').max(100),
    'bankName',
  ),
  branch: plainText(z.string().trim().max(100, 'branch is too long'), 'branch').nullable().optional(),
});
