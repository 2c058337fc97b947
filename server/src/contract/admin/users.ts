// Admin contract: users — list, view, edit, account actions, test users. Money: `*Paise` fields are integer paise;
// a plain `amount` is rupees (spec). Times are ISO-8601 UTC strings.
import { z } from 'zod';
import type { SuccessResponse, UserDto } from '../dto';
import { BROKER_TYPES } from '../dto';
import type { BrokerConnectionDto, PlanDto } from '../user';
import { brokerTypeSchema } from '../user';
import { emailSchema, passwordSchema, phoneSchema } from '../schemas';
import { plainText } from '../text';
import { type PageDto, listQuerySchema, isoInstant } from './listing';
import type { AdminPaymentDto, PaymentRequestDto } from './payments';

// -------------------------------------------------------------------------------------------------------- users

export const USER_STATUS_FILTERS = ['all', 'active', 'pending', 'inactive', 'expired'] as const;
/** Who a users list shows: the customers (traders; the default), or the admins, who are not customers. */
export const USER_ROLE_FILTERS = ['customers', 'admins'] as const;

/** `GET /api/admin/users`: search matches e-mail, first or last name. */
export const usersQuerySchema = listQuerySchema.extend({
  role: z
    .enum(USER_ROLE_FILTERS, { error: `role must be one of ${USER_ROLE_FILTERS.join(', ')}` })
    .default('customers'),
  status: z
    .enum(USER_STATUS_FILTERS, { error: `status must be one of ${USER_STATUS_FILTERS.join(', ')}` })
    .default('all'),
  broker: z
    .enum([...BROKER_TYPES, 'none'], { error: `broker must be one of ${BROKER_TYPES.join(', ')} or none` })
    .optional(),
});

export const PAYMENT_METHODS = ['upi', 'bank_transfer', 'razorpay', 'test'] as const;

/** The latest payment received from the user (spec: paymentDetails). */
export interface PaymentDetailsDto {
  utrNumber: string | null;
  paymentMethod: (typeof PAYMENT_METHODS)[number];
  /** rupees */
  amount: number;
  amountPaise: number;
  paymentDate: string;
}

export interface AdminUserDto extends UserDto {
  isTest: boolean;
  /** deactivated by an admin: cannot sign in, bot stopped */
  disabled: boolean;
  broker: BrokerConnectionDto | null;
  paymentDetails: PaymentDetailsDto | null;
}

export interface AdminUsersResponse extends PageDto<AdminUserDto> {
  /** customers only (admins and test accounts are not counted), plus how many admins there are */
  summary: { total: number; active: number; pendingPayments: number; newThisMonth: number; admins: number };
}

/** `GET /api/admin/users/:id`: the View dialog. Never a password or hash; broker key masked to the last 4. */
export interface AdminUserDetailDto extends AdminUserDto {
  plan: PlanDto | null;
  subscriptions: Array<{
    startsAt: string;
    endsAt: string;
    source: 'payment' | 'admin' | 'trial';
    planCode: string | null;
  }>;
  payments: AdminPaymentDto[];
  paymentRequests: PaymentRequestDto[];
}

/** `PATCH /api/admin/users/:id`: only the fields sent change. Broker key and secret are replaced together. */
export const patchUserSchema = z
  .object({
    firstName: plainText(
      z.string().trim().min(1, 'firstName is required').max(80, 'firstName is too long'),
      'firstName',
    ),
    lastName: plainText(
      z.string().trim().min(1, 'lastName is required').max(80, 'lastName is too long'),
      'lastName',
    ),
    email: emailSchema,
    phone: phoneSchema,
    subscriptionStatus: z.enum(['active', 'pending', 'inactive', 'expired'], {
      error: 'subscriptionStatus must be active, pending, inactive or expired',
    }),
    subscriptionStartDate: isoInstant('subscriptionStartDate').nullable(),
    subscriptionEndDate: isoInstant('subscriptionEndDate').nullable(),
    brokerType: brokerTypeSchema,
    brokerApiKey: plainText(
      z.string().trim().min(1, 'brokerApiKey must not be empty').max(200, 'brokerApiKey is too long'),
      'brokerApiKey',
    ),
    brokerApiSecret: plainText(
      z.string().trim().min(1, 'brokerApiSecret must not be empty').max(500, 'brokerApiSecret is too long'),
      'brokerApiSecret',
    ),
    /** records a payment received outside the gateway (idempotent per UTR); it does not change the status */
    paymentDetails: z.object({
      utrNumber: z
        .string()
        .trim()
        .regex(/^\d{12}$/, 'paymentDetails.utrNumber must be 12 digits'),
      paymentMethod: z.enum(['upi', 'bank_transfer'], {
        error: 'paymentDetails.paymentMethod must be upi or bank_transfer',
      }),
      amountPaise: z
        .number({ error: 'paymentDetails.amountPaise must be a number' })
        .int('paymentDetails.amountPaise must be whole paise')
        .min(1, 'paymentDetails.amountPaise must be positive')
        .max(100_000_000, 'paymentDetails.amountPaise is too large'),
      paymentDate: isoInstant('paymentDetails.paymentDate'),
    }),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' })
  .refine((b) => (b.brokerApiKey === undefined) === (b.brokerApiSecret === undefined), {
    message: 'brokerApiKey and brokerApiSecret are replaced together',
    path: ['brokerApiSecret'],
  });
export type PatchUserRequest = z.input<typeof patchUserSchema>;

export interface AdminUserResponse extends SuccessResponse {
  user: AdminUserDto;
}

/** `POST /api/admin/users/:id/password`: sets it and ends every session and socket of that user. */
export const setUserPasswordSchema = z.object({ newPassword: passwordSchema });

/** `POST /api/admin/users/:id/send-reset-link` → { success, message, resetLink? } (link only in mail test mode) */

/** `POST /api/admin/users/:id/activate`: opens a pending user's subscription; the reason goes to the audit log. */
export const activateUserSchema = z.object({
  reason: plainText(
    z
      .string({ error: 'reason is required' })
      .trim()
      .min(3, 'reason is required')
      .max(500, 'reason is too long'),
    'reason',
    { multiline: true },
  ),
  planCode: z.string().trim().min(1).max(40).optional(),
});

/** `POST /api/admin/users/:id/deactivate` and `/reactivate` take no body and answer AdminUserResponse. */

/** `POST /api/admin/create-test-user`: a paper account with an active demo subscription, left out of revenue. */
export const createTestUserSchema = z
  .object({
    firstName: plainText(z.string().trim().min(1).max(80), 'firstName').optional(),
    lastName: plainText(z.string().trim().min(1).max(80), 'lastName').optional(),
    days: z.number().int().min(1, 'days must be 1 to 90').max(90, 'days must be 1 to 90').optional(),
  })
  .strict();
export interface CreateTestUserResponse extends SuccessResponse {
  user: AdminUserDto;
  /** generated once and shown once */
  password: string;
}
