// Admin contract: contact messages, plans, offers, the payment gateway and strategies. Money: `*Paise` fields are integer paise;
// a plain `amount` is rupees (spec). Times are ISO-8601 UTC strings.
import { z } from 'zod';
import type { SuccessResponse } from '../dto';
import type { PlanDto } from '../user';
import { offerCodeSchema } from '../user';
import { plainText } from '../text';
import { type PageDto, type UserRefDto, listQuerySchema, isoInstant } from './listing';

// -------------------------------------------------------------------------------------------- contact messages

/** `GET /api/admin/contact-messages` → ContactMessagesResponse */
export const contactMessagesQuerySchema = listQuerySchema.extend({
  unread: z.enum(['true', 'false'], { error: "unread must be 'true' or 'false'" }).optional(),
});
export interface ContactMessageDto {
  id: number;
  name: string;
  email: string;
  message: string;
  userId: number | null;
  createdAt: string;
  readAt: string | null;
}
export interface ContactMessagesResponse extends PageDto<ContactMessageDto> {
  unreadCount: number;
}
/** `PATCH /api/admin/contact-messages/:id { read }` → { success, message, contactMessage } */
export const markContactMessageSchema = z.object({
  read: z.boolean({ error: 'read must be true or false' }),
});

// -------------------------------------------------------------------------------------- plans, offers, gateway

export interface AdminPlanDto extends PlanDto {
  id: number;
  gstRateBp: number;
  active: boolean;
  sortOrder: number;
}
/** `PATCH /api/admin/plans/:code` */
export const patchPlanSchema = z
  .object({
    name: plainText(z.string().trim().min(1, 'name is required').max(100, 'name is too long'), 'name'),
    pricePaise: z
      .number({ error: 'pricePaise must be a number' })
      .int('pricePaise must be whole paise')
      .min(100, 'pricePaise must be at least ₹1')
      .max(100_000_000, 'pricePaise is too large'),
    active: z.boolean({ error: 'active must be true or false' }),
    sortOrder: z.number().int().min(0).max(1000),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' });

export interface AdminOfferDto {
  id: number;
  name: string;
  /** upper-case; unique whatever the case */
  code: string | null;
  /** 0.01..100 for a percentage offer; null for a fixed-amount offer */
  discountPercent: number | null;
  /** the fixed discount in paise; null for a percentage offer */
  discountAmountPaise: number | null;
  planCode: string | null;
  /** first instant the offer applies (UTC); null: from creation */
  validFrom: string | null;
  /** first instant the offer no longer applies (UTC); the admin form shows the IST day before it; null: no end */
  validTill: string | null;
  /** redemption cap; null: unlimited */
  maxUsers: number | null;
  /** redemptions: verified payments that used the offer */
  usedCount: number;
  active: boolean;
  createdAt: string;
}

const offerName = plainText(
  z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(100, 'name is too long'),
  'name',
);
const offerPercent = z
  .number({ error: 'discountPercent must be a number' })
  .min(0.01, 'discountPercent must be between 0.01 and 100')
  .max(100, 'discountPercent must be between 0.01 and 100')
  // Stored as whole basis points: 12.5 % is 1250 bp; 12.345 % cannot be stored and is refused, not rounded.
  .refine(
    (v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-9,
    'discountPercent may have at most 2 decimals',
  );
const offerAmount = z
  .number({ error: 'discountAmountPaise must be a number' })
  .int('discountAmountPaise must be whole paise')
  .min(100, 'discountAmountPaise must be at least ₹1 (100 paise)')
  .max(100_000_000, 'discountAmountPaise is too large');
const offerMaxUsers = z
  .number({ error: 'maxUsers must be a number' })
  .int('maxUsers must be a whole number')
  .min(1, 'maxUsers must be at least 1')
  .max(1_000_000, 'maxUsers is too large')
  .nullable();
const offerActive = z.boolean({ error: 'active must be true or false' });
const offerPlanCode = z.string().trim().min(1).max(40).nullable();

/** An offer is a percentage or a fixed amount, never both. */
function oneDiscount(
  body: { discountPercent?: number | undefined; discountAmountPaise?: number | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.discountPercent !== undefined && body.discountAmountPaise !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'send discountPercent or discountAmountPaise, not both',
      path: ['discountAmountPaise'],
    });
  }
}

/**
 * `POST /api/admin/offers`: a code is required (checkout redeems offers by code). The discount is a percentage
 * (`discountPercent`) or a fixed amount (`discountAmountPaise`); neither means the spec's 10 %. Defaults: valid 30
 * days from now (the service), 50 users, active.
 */
export const offerSchema = z
  .object({
    name: offerName,
    code: offerCodeSchema('code'),
    discountPercent: offerPercent.optional(),
    discountAmountPaise: offerAmount.optional(),
    planCode: offerPlanCode.optional(),
    validFrom: isoInstant('validFrom').nullable().optional(),
    validTill: isoInstant('validTill').nullable().optional(),
    maxUsers: offerMaxUsers.default(50),
    active: offerActive.default(true),
  })
  .strict()
  .superRefine(oneDiscount)
  .transform((b) =>
    b.discountPercent === undefined && b.discountAmountPaise === undefined
      ? { ...b, discountPercent: 10 }
      : b,
  );

/**
 * `PATCH /api/admin/offers/:id`: only the fields sent change (no defaults here). Sending one kind of discount
 * replaces the other.
 */
export const patchOfferSchema = z
  .object({
    name: offerName,
    code: offerCodeSchema('code'),
    discountPercent: offerPercent,
    discountAmountPaise: offerAmount,
    planCode: offerPlanCode,
    validFrom: isoInstant('validFrom').nullable(),
    validTill: isoInstant('validTill').nullable(),
    maxUsers: offerMaxUsers,
    active: offerActive,
  })
  .partial()
  .strict()
  .superRefine(oneDiscount)
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' });
export type NewOfferRequest = z.input<typeof offerSchema>;
export type PatchOfferRequest = z.input<typeof patchOfferSchema>;
export interface OfferResponse extends SuccessResponse {
  offer: AdminOfferDto;
}

/** `GET /api/admin/offers/:id/redemptions?page&pageSize`: verified payments that redeemed an offer, newest first. */
export const offerRedemptionsQuerySchema = listQuerySchema.pick({ page: true, pageSize: true }).strict();
export interface OfferRedemptionDto {
  paymentId: number;
  user: UserRefDto;
  paidAt: string;
  /** what the buyer paid, GST included */
  amountPaise: number;
  /** the discount on the invoice (0 when the amount was not the checkout price) */
  discountPaise: number;
  invoiceNumber: string | null;
}
export interface OfferRedemptionsResponse extends PageDto<OfferRedemptionDto> {
  offer: AdminOfferDto;
}

/** `GET /api/admin/payment-gateway` */
export interface PaymentGatewayStatusDto {
  provider: 'razorpay';
  mode: 'test' | 'live';
  keyIdMasked: string | null;
  webhookSecretConfigured: boolean;
  lastWebhookAt: string | null;
  lastWebhookType: string | null;
  webhooksLast24h: number;
}

// -------------------------------------------------------------------------------------------------- strategies

export const STRATEGY_KINDS = ['consecutive_breakout'] as const;
export const ORDER_TYPES = ['SLM', 'MARKET', 'LIMIT'] as const;

/** What the runtime needs to run a strategy; the runtime parses stored parameters with this schema. */
export const strategyParametersSchema = z.object({
  interval: z.union([z.literal(1), z.literal(3), z.literal(5), z.literal(15)], {
    error: 'parameters.interval must be 1, 3, 5 or 15',
  }),
  consecutiveCandles: z.number().int('parameters.consecutiveCandles must be whole').min(1).max(10),
  minMovement: z
    .number()
    .min(0, 'parameters.minMovement must be 0 to 200')
    .max(200, 'parameters.minMovement must be 0 to 200'),
  entryOffset: z
    .number()
    .min(0, 'parameters.entryOffset must be 0 to 100')
    .max(100, 'parameters.entryOffset must be 0 to 100'),
  stopLoss: z
    .number()
    .min(1, 'parameters.stopLoss must be 1 to 500')
    .max(500, 'parameters.stopLoss must be 1 to 500'),
  target: z
    .number()
    .min(1, 'parameters.target must be 1 to 1000')
    .max(1000, 'parameters.target must be 1 to 1000'),
  /** rupees per user per day */
  maxLoss: z.number().int('parameters.maxLoss must be whole rupees').min(0).max(10_000_000),
  orderType: z.enum(ORDER_TYPES, { error: 'parameters.orderType must be SLM, MARKET or LIMIT' }),
});
export type StrategyParameters = z.infer<typeof strategyParametersSchema>;

/** `POST /api/admin/strategies`; `PATCH /api/admin/strategies/:id` takes any subset. */
export const strategySchema = z.object({
  name: plainText(
    z
      .string({ error: 'Please fill in strategy name and description.' })
      .trim()
      .min(1, 'Please fill in strategy name and description.')
      .max(100, 'name is too long'),
    'name',
  ),
  description: plainText(
    z
      .string({ error: 'Please fill in strategy name and description.' })
      .trim()
      .min(1, 'Please fill in strategy name and description.')
      .max(2000, 'description is too long'),
    'description',
    { multiline: true },
  ),
  kind: z
    .enum(STRATEGY_KINDS, { error: 'kind must be consecutive_breakout' })
    .default('consecutive_breakout'),
  sides: z.enum(['CE', 'PE', 'BOTH'], { error: 'sides must be CE, PE or BOTH' }),
  active: z.boolean({ error: 'active must be true or false' }).default(true),
  parameters: strategyParametersSchema,
});
export const patchStrategySchema = z
  .object({
    name: strategySchema.shape.name,
    description: strategySchema.shape.description,
    sides: strategySchema.shape.sides,
    active: z.boolean({ error: 'active must be true or false' }),
    parameters: strategyParametersSchema.partial(),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' });

export interface AdminStrategyDto {
  id: number;
  code: string;
  name: string;
  description: string;
  kind: (typeof STRATEGY_KINDS)[number];
  /** spec field `type` */
  sides: 'CE' | 'PE' | 'BOTH';
  active: boolean;
  builtIn: boolean;
  parameters: StrategyParameters;
  createdAt: string;
  updatedAt: string;
}
export interface StrategyResponse extends SuccessResponse {
  strategy: AdminStrategyDto;
}
