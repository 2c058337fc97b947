// Refunds of recorded payments (issue 11): an admin returns all or part of a payment, Razorpay's own for card and
// UPI checkouts, and chooses what happens to the subscription it paid for. Types and zod only (web imports this).
import { z } from 'zod';
import { plainText } from './text';

export const REFUND_END_ACTIONS = ['keep', 'end_now', 'set'] as const;

/** `POST /api/admin/payments/:id/refund` */
export const refundPaymentSchema = z
  .object({
    /** GST-inclusive paise to return; at most what is left of the payment */
    amountPaise: z
      .number({ error: 'amountPaise must be a number of paise' })
      .int('amountPaise must be whole paise')
      .positive('amountPaise must be positive')
      .max(10_000_000_00, 'amountPaise is too large'),
    reason: plainText(
      z
        .string({ error: 'reason is required' })
        .trim()
        .min(3, 'reason must be at least 3 characters')
        .max(200, 'reason is too long'),
      'reason',
    ),
    /** keep the end date, end the subscription now, or set a new end date */
    endAction: z.enum(REFUND_END_ACTIONS, { error: 'endAction must be keep, end_now or set' }),
    endDate: z.iso.datetime({ offset: true, error: 'endDate must be an ISO-8601 date-time' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.endAction === 'set' && value.endDate === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'endDate is required when endAction is set',
      });
  });

export type RefundPaymentRequest = z.input<typeof refundPaymentSchema>;

export interface RefundDto {
  id: number;
  paymentId: number;
  amountPaise: number;
  status: 'pending' | 'processed' | 'failed';
  /** Razorpay's refund id; null for a refund of a manual or test payment, recorded here only */
  providerRefundId: string | null;
  reason: string;
  createdAt: string;
}

export interface RefundResponse {
  success: true;
  message: string;
  refund: RefundDto;
  creditNote: { id: number; number: string } | null;
}
