// Contract of every admin call (spec §7 "Admin calls") plus the UPI payment-request flow, in one file so the web
// app can build on it before the routes exist. Money: `*Paise` fields are integer paise; a plain `amount` follows
// the spec and is rupees. Times are ISO-8601 UTC strings. Lists are paginated and filtered on the server.
import { z } from 'zod';
import type {
  AdminTradeDto,
  BrokerType,
  LogDto,
  SignalDto,
  SuccessResponse,
  SubsystemStatus,
  UserDto,
} from './dto';
import { BROKER_TYPES } from './dto';
import type { BrokerConnectionDto, PlanDto } from './user';
import { brokerTypeSchema, offerCodeSchema } from './user';
import { emailSchema, passwordSchema, phoneSchema } from './schemas';
import { plainText } from './text';

// ---------------------------------------------------------------------------------------------- lists and filters

export const PAGE_SIZE_MAX = 100;

/** Every list answer: one page of items, newest first, and how many match the filters in all. */
export interface PageDto<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** `today` and `month`/`quarter` are IST calendar periods; `week` is the last 10080 minutes (spec §9). */
export const PERIODS = ['all', 'today', 'week', 'month', 'quarter'] as const;
export type Period = (typeof PERIODS)[number];

const isoDay = (field: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date like 2026-11-24`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), `${field} must be a real date`);

/** page/pageSize plus an optional period or an IST day range (`from`/`to` inclusive). */
export const listQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(100_000, 'page is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, `pageSize must be between 1 and ${PAGE_SIZE_MAX}`)
    .max(PAGE_SIZE_MAX, `pageSize must be between 1 and ${PAGE_SIZE_MAX}`)
    .default(25),
  period: z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(', ')}` }).default('all'),
  from: isoDay('from').optional(),
  to: isoDay('to').optional(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** Who a row belongs to, as admin tables show it. */
export interface UserRefDto {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

// ----------------------------------------------------------------------------------------------------- overview

/** `GET /api/admin/stats` */
export interface AdminStatsDto {
  /** users with an active subscription (test users excluded) */
  activeUsers: number;
  /** paise received this IST calendar month, test users excluded */
  monthlyRevenue: number;
  totalTrades: number;
  /** percent of closed trades with pnl > 0, 0..100 */
  winRate: number;
  /** the master switch (tradingEnabled) */
  botRunning: boolean;
}

export type HealthCheckName =
  'feed' | 'database' | 'brokerSessions' | 'openPositions' | 'eventLoop' | 'memory' | 'calendar';

export interface HealthCheckDto {
  name: HealthCheckName;
  status: SubsystemStatus;
  /** human summary, e.g. "live, last tick 0.8 s ago" */
  detail: string;
}

/** `GET /api/admin/system-health`: every value measured at `checkedAt`. */
export interface SystemHealthDto {
  status: SubsystemStatus;
  checkedAt: string;
  checks: HealthCheckDto[];
  feed: { status: 'live' | 'stale' | 'down'; lastTickAt: string | null; lastTickAgeMs: number | null };
  database: { ok: boolean; latencyMs: number };
  brokerSessions: { valid: number; expired: number; error: number; notConnected: number };
  openPositions: number;
  eventLoop: { meanMs: number; p99Ms: number; maxMs: number };
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number };
  calendar: { yearsCovered: number[]; thisYear: boolean; nextYear: boolean };
}

// ----------------------------------------------------------------------------------------------------- controls

const boolText = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be 'true' or 'false'` }).transform((v) => v === 'true');

const numberText = (name: string, min: number, max: number, opts: { int?: boolean } = {}) =>
  z
    .string({ error: `${name} must be a number` })
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, `${name} must be a number`)
    .transform(Number)
    .pipe(
      (opts.int ? z.number().int(`${name} must be a whole number`) : z.number())
        .min(min, `${name} must be between ${min} and ${max}`)
        .max(max, `${name} must be between ${min} and ${max}`),
    );

/**
 * One schema per admin control: the stored string (spec: values are strings) → its typed value. The admin route
 * validates writes with it and the trading runtime parses stored controls with it, so both agree on the bounds.
 * Points are NIFTY premium points.
 */
export const ADMIN_CONTROL_SCHEMA = {
  tradingEnabled: boolText('tradingEnabled'),
  putEnabled: boolText('putEnabled'),
  callEnabled: boolText('callEnabled'),
  stopLoss: numberText('stopLoss', 1, 500),
  target: numberText('target', 1, 1000),
  minMovement: numberText('minMovement', 0, 200),
  entryOffset: numberText('entryOffset', 0, 100),
  consecutiveCandles: numberText('consecutiveCandles', 1, 10, { int: true }),
  candleInterval: z
    .enum(['1', '3', '5', '15'], { error: 'candleInterval must be 1, 3, 5 or 15' })
    .transform(Number),
  squareOffTime: z
    .string({ error: 'squareOffTime is required' })
    .regex(
      /^(09:(1[5-9]|[2-5]\d)|1[0-4]:[0-5]\d|15:([0-2]\d|30))$/,
      'squareOffTime must be HH:MM between 09:15 and 15:30 IST',
    ),
  maxOrdersPerSecond: numberText('maxOrdersPerSecond', 1, 10, { int: true }),
  algoTag: z
    .string({ error: 'algoTag is required' })
    .regex(/^[A-Za-z0-9]{1,20}$/, 'algoTag must be 1 to 20 letters or digits'),
} as const;

export type AdminControlName = keyof typeof ADMIN_CONTROL_SCHEMA;
export const ADMIN_CONTROL_NAMES = Object.keys(ADMIN_CONTROL_SCHEMA) as AdminControlName[];
export type AdminControlValues = { [K in AdminControlName]: z.output<(typeof ADMIN_CONTROL_SCHEMA)[K]> };

export const controlNameSchema = z.enum(ADMIN_CONTROL_NAMES as [AdminControlName, ...AdminControlName[]], {
  error: `settingName must be one of ${ADMIN_CONTROL_NAMES.join(', ')}`,
});

/** `PUT /api/admin/control/:settingName` body; numbers and booleans are accepted and stored as their text. */
export const putControlSchema = z.object({
  value: z
    .union([z.string(), z.number(), z.boolean()], { error: 'value is required' })
    .transform((v) => String(v).trim()),
});

/** `PUT /api/admin/control/:settingName`, `POST /api/admin/trading/pause|resume` */
export interface ControlUpdateResponse extends SuccessResponse {
  control: { settingName: string; value: string; updatedAt: string };
  isRunning: boolean;
}

/** `POST /api/admin/trading/flatten-all`: the body must confirm, so a stray click cannot square off everything. */
export const flattenAllSchema = z.object({
  confirm: z.literal(true, { error: 'confirm must be true to square off every open position' }),
});
export interface FlattenAllResponse extends SuccessResponse {
  closed: number;
}

// ---------------------------------------------------------------------------------------- logs, signals, trades

/** `GET /api/admin/logs` → PageDto<AdminLogDto> */
export const logsQuerySchema = listQuerySchema.extend({
  eventType: z
    .enum(['auth', 'trade', 'order', 'admin', 'payment', 'error', 'system', 'other'], {
      error: 'eventType must be auth, trade, order, admin, payment, error, system or other',
    })
    .optional(),
  userId: z.coerce.number({ error: 'userId must be a number' }).int().positive().optional(),
});
export interface AdminLogDto extends LogDto {
  actorId: number | null;
  user: UserRefDto | null;
}

/** `GET /api/admin/signals` → PageDto<SignalDto> */
export const signalsQuerySchema = listQuerySchema.extend({
  type: z.enum(['CALL', 'PUT'], { error: 'type must be CALL or PUT' }).optional(),
  executed: z.enum(['true', 'false'], { error: "executed must be 'true' or 'false'" }).optional(),
});
export type AdminSignalDto = SignalDto;

/** `GET /api/admin/trades`: search matches instrument, e-mail or name. */
export const tradesQuerySchema = listQuerySchema.extend({
  status: z
    .enum(['open', 'closed', 'cancelled'], { error: 'status must be open, closed or cancelled' })
    .optional(),
  type: z.enum(['CALL', 'PUT'], { error: 'type must be CALL or PUT' }).optional(),
  userId: z.coerce.number({ error: 'userId must be a number' }).int().positive().optional(),
});
export interface AdminTradesResponse extends PageDto<AdminTradeDto> {
  /** over every trade matching the filters, not just this page */
  summary: { total: number; winRate: number; totalPnl: number; totalPnlPaise: number; openTrades: number };
}

// -------------------------------------------------------------------------------------------------------- users

export const USER_STATUS_FILTERS = ['all', 'active', 'pending', 'inactive', 'expired'] as const;

/** `GET /api/admin/users`: search matches e-mail, first or last name. */
export const usersQuerySchema = listQuerySchema.extend({
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
  summary: { total: number; active: number; pendingPayments: number; newThisMonth: number };
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

const isoInstant = (field: string) =>
  z.iso.datetime({ offset: true, error: `${field} must be an ISO-8601 date-time` });

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
  /** over every row matching the filters; test users excluded */
  totals: { approvedPaise: number; pendingPaise: number; count: number; averagePaise: number };
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

// ------------------------------------------------------------------------------------------------------ brokers

/** `GET /api/admin/broker-status` (spec) */
export interface BrokerStatusDto {
  totalUsers: number;
  connectedUsers: number;
  brokerBreakdown: Partial<Record<BrokerType, number>>;
  sessions: { valid: number; expired: number; error: number; credentialsSaved: number; disconnected: number };
}

/** `GET /api/admin/brokers`: one row per user with a broker account. */
export const brokersQuerySchema = listQuerySchema.extend({
  broker: z.enum(BROKER_TYPES, { error: `broker must be one of ${BROKER_TYPES.join(', ')}` }).optional(),
  status: z
    .enum(['credentials_saved', 'connected', 'expired', 'error', 'disconnected'], {
      error: 'status must be credentials_saved, connected, expired, error or disconnected',
    })
    .optional(),
});
export interface AdminBrokerAccountDto extends BrokerConnectionDto {
  user: UserRefDto;
  connectedAt: string | null;
  updatedAt: string;
}

export const userIdBodySchema = z.object({
  userId: z
    .number({ error: 'userId must be a number' })
    .int('userId must be a whole number')
    .positive('userId must be positive'),
});
/** `POST /api/admin/test-fyers` may omit userId: then it tests the first Fyers account. */
export const testFyersSchema = z.object({ userId: userIdBodySchema.shape.userId.optional() });

/** `POST /api/admin/test-broker { userId }` and `POST /api/admin/test-fyers` */
export interface TestBrokerResponse extends SuccessResponse {
  /** what was checked: `paper`, `not_available` (no module for that broker), `credentials`, `session`, `profile` */
  check: 'paper' | 'not_available' | 'credentials' | 'session' | 'profile';
  brokerType: BrokerType | 'paper';
  profile?: { name: string };
}

/** `POST /api/admin/force-broker-disconnect { userId }` → SuccessResponse */

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
  code: string | null;
  /** 0.01..100 */
  discountPercent: number;
  planCode: string | null;
  validFrom: string | null;
  validTill: string | null;
  /** null: unlimited */
  maxUsers: number | null;
  usedCount: number;
  active: boolean;
  createdAt: string;
}
/** `POST /api/admin/offers` (spec defaults: 10%, valid 30 days, 50 users) and `PATCH /api/admin/offers/:id` */
export const offerSchema = z.object({
  name: plainText(
    z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(100, 'name is too long'),
    'name',
  ),
  code: offerCodeSchema('code').nullable().optional(),
  discountPercent: z
    .number({ error: 'discountPercent must be a number' })
    .min(0.01, 'discountPercent must be between 0.01 and 100')
    .max(100, 'discountPercent must be between 0.01 and 100')
    .default(10),
  planCode: z.string().trim().min(1).max(40).nullable().optional(),
  validFrom: isoInstant('validFrom').nullable().optional(),
  validTill: isoInstant('validTill').nullable().optional(),
  maxUsers: z
    .number()
    .int('maxUsers must be a whole number')
    .min(1, 'maxUsers must be at least 1')
    .max(1_000_000)
    .nullable()
    .default(50),
  active: z.boolean({ error: 'active must be true or false' }).default(true),
});
export const patchOfferSchema = offerSchema
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' });
export interface OfferResponse extends SuccessResponse {
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
