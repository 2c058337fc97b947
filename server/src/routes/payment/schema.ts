// Requests of /api/payment/*: the shared contract schemas. `create-order` accepts (and ignores) the browser's
// `amount`: the plan decides the price.
import { z } from 'zod';

export {
  checkoutQuoteSchema,
  createOrderSchema,
  testCheckoutSchema,
  verifyPaymentSchema,
} from '../../contract';

/**
 * Razorpay's `X-Razorpay-Event-Id`: the key that makes a retried delivery a duplicate, so it must be there and be a
 * plain id (Razorpay's are 14 base62 characters; a little room, never a stored essay or control characters).
 */
export const webhookEventIdSchema = z
  .string({ error: 'is required' })
  .min(1, 'is required')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "_" or "-"');
