// Contract of the live trading loop (issue: engine in the server, user dashboard, payment in test mode).
// Money on the wire: `*Paise` fields are integer paise; plain `amount`/`pnl` fields follow the spec and are rupees.
import { z } from 'zod';
import { buyerSchema } from './gst';
import type { BrokerType, SubscriptionStatus, UserDto } from './dto';
import { BROKER_TYPES } from './dto';
import { plainText } from './text';
import type { SessionFactsDto } from './session';

export interface PlanDto {
  code: string;
  name: string;
  months: number;
  /** price before GST */
  pricePaise: number;
  gstPaise: number;
  totalPaise: number;
}

/** `GET /api/user/subscription` */
export interface SubscriptionDto {
  status: SubscriptionStatus;
  plan: PlanDto | null;
  startDate: string | null;
  /** the spec's "next billing" date */
  endDate: string | null;
  /** rupees incl. GST of the current plan (spec field) */
  amount: number;
  amountPaise: number;
  daysLeft: number | null;
}

/** `GET/PUT /api/user/trading-settings` (the Trading Settings dialog) */
export interface TradingSettingsDto {
  orderType: 'SLM';
  /** target in premium points: 15, 20, ..., 40 */
  targetSetting: number;
  /** lots, 1..10 */
  tradeQuantity: number;
  /** units per lot of the current contract, for display ("2 lots = 130 qty") */
  lotSize: number;
  /** the strategy this trader follows; null = the default (built-in) one */
  strategyId: number | null;
  /** the strategies a trader may follow: every active one, the default first */
  strategies: StrategyOptionDto[];
}

/** A strategy a trader may choose in Trading Settings (white-box: its rules are on the strategy panel). */
export interface StrategyOptionDto {
  id: number;
  name: string;
  description: string;
  /** the built-in strategy, run on the admin controls */
  isDefault: boolean;
}

export const TARGET_SETTINGS = [15, 20, 25, 30, 35, 40] as const;

export const tradingSettingsSchema = z.object({
  orderType: z.literal('SLM', { error: 'orderType must be SLM' }),
  targetSetting: z
    .number({ error: 'targetSetting must be a number' })
    .int('targetSetting must be a whole number')
    .min(15, 'targetSetting must be between 15 and 40')
    .max(40, 'targetSetting must be between 15 and 40')
    .multipleOf(5, 'targetSetting must be a multiple of 5'),
  tradeQuantity: z
    .number({ error: 'tradeQuantity must be a number' })
    .int('tradeQuantity must be a whole number of lots')
    .min(1, 'tradeQuantity must be between 1 and 10 lots')
    .max(10, 'tradeQuantity must be between 1 and 10 lots'),
  /** the strategy to follow; null or absent = the default one */
  strategyId: z
    .number({ error: 'strategyId must be a number' })
    .int('strategyId must be a whole number')
    .positive('strategyId must be a strategy id')
    .nullable()
    .optional(),
});
export type TradingSettingsRequest = z.infer<typeof tradingSettingsSchema>;

/**
 * `GET/PUT /api/user/settings` (the Settings tab). The first version's "risk level" is gone: nothing ever read it
 * (issue 18); a client that still sends `riskLevel` has it ignored. So are the four notification switches: the
 * per-event × per-channel table of `GET/PUT /api/user/notifications` replaced them (issue 20), and a client that
 * still sends `notifications` has it ignored.
 */
export interface UserSettingsDto {
  autoTrading: boolean;
  /** rupees (whole) */
  maxDailyLoss: number;
  tradingHoursStart: string;
  tradingHoursEnd: string;
}

const hhmm = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${field} must be HH:MM (IST)`);

export const userSettingsSchema = z
  .object({
    autoTrading: z.boolean({ error: 'autoTrading must be true or false' }),
    maxDailyLoss: z
      .number({ error: 'maxDailyLoss must be a number' })
      .int('maxDailyLoss must be whole rupees')
      .min(500, 'maxDailyLoss must be at least ₹500')
      .max(1_000_000, 'maxDailyLoss must be at most ₹10,00,000'),
    tradingHoursStart: hhmm('tradingHoursStart'),
    tradingHoursEnd: hhmm('tradingHoursEnd'),
  })
  .refine((s) => s.tradingHoursStart < s.tradingHoursEnd, {
    message: 'tradingHoursEnd must be after tradingHoursStart',
    path: ['tradingHoursEnd'],
  });
export type UserSettingsRequest = z.infer<typeof userSettingsSchema>;

/** `PUT /api/user/bot` */
export const botSwitchSchema = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) });

/** `GET /api/user/bot-status` and `PUT /api/user/bot`: the spec's `isRunning` plus why it is (not) trading. */
export interface BotStatusDetailDto {
  isRunning: boolean;
  /** the user's own switch */
  enabled: boolean;
  /** the admins' master switch (tradingEnabled) */
  globalTradingEnabled: boolean;
  mode: 'paper' | 'live';
  /** human reason when not running, e.g. "Subscription inactive" */
  reason?: string;
}

/** Spec's accepted spellings `grow` and `upstokes` are stored canonically. */
export const brokerTypeSchema = z
  .string({ error: 'brokerType is required' })
  .trim()
  .toLowerCase()
  .transform((v) => (v === 'grow' ? 'groww' : v === 'upstokes' ? 'upstox' : v))
  .pipe(z.enum(BROKER_TYPES, { error: `brokerType must be one of ${BROKER_TYPES.join(', ')}` }));

const brokerCredential = (field: 'apiKey' | 'apiSecret', max: number) =>
  plainText(
    z
      .string({ error: `${field} is required` })
      .trim()
      .min(1, 'Please fill in all broker credentials including API secret')
      .max(max, `${field} is too long`),
    field,
  );

export const brokerCredentialsSchema = z.object({
  brokerType: brokerTypeSchema,
  apiKey: brokerCredential('apiKey', 200),
  apiSecret: brokerCredential('apiSecret', 500),
});

/** Masked view of a stored broker connection: never the secret, the key only as its last 4 characters. */
export interface BrokerConnectionDto {
  brokerType: BrokerType;
  apiKeyMasked: string;
  status: 'credentials_saved' | 'connected' | 'expired' | 'error' | 'disconnected';
  connected: boolean;
  tokenExpiresAt: string | null;
  lastError: string | null;
  /**
   * Connected / IP not allowed / Session expired / Not connected, judged against the clock (a token past its expiry
   * is expired); `ip_blocked`: the broker refused this server's IP on an order, so no order goes until the trader
   * whitelists it and resumes (`lastError` says which IP)
   */
  session: 'connected' | 'ip_blocked' | 'expired' | 'not_connected';
  /** the broker's name for the account, from the last login */
  accountName: string | null;
  /** the URL to register as the redirect URL in the broker app: `{origin}/broker/{broker}/callback` */
  redirectUrl: string;
  /** the last reconciliation of positions with the broker (at start and after a reconnect), null before the first */
  positionCheck: PositionCheckDto | null;
}

/**
 * Positions reconciled with the broker: the broker wins. `closed`: OptionPilot held units the broker no longer
 * holds (sold outside OptionPilot), so its trades were closed; `not_managed`: the broker holds units OptionPilot did
 * not open (or a short), reported and left alone.
 */
export interface PositionCheckDto {
  checkedAt: string;
  differences: Array<{
    symbol: string;
    optionPilot: number;
    broker: number;
    action: 'closed' | 'not_managed';
    /** OptionPilot trade ids closed because of this difference */
    closedTradeIds: number[];
  }>;
}

export interface BrokerSaveResponse {
  success: true;
  message: string;
  broker: BrokerConnectionDto;
  user: UserDto;
}

export const contactSchema = z.object({
  name: plainText(
    z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(120, 'name is too long'),
    'name',
  ),
  email: z
    .string({ error: 'email is required' })
    .trim()
    .email('email must be a valid e-mail address')
    .max(254),
  message: plainText(
    z
      .string({ error: 'message is required' })
      .trim()
      .min(1, 'message is required')
      .max(5000, 'message must be at most 5000 characters'),
    'message',
    { multiline: true },
  ),
});

/** `GET /api/config`: the explicit list of settings the browser may know. */
export interface PublicConfigDto {
  version: string;
  paymentTestMode: boolean;
  razorpayKeyId: string | null;
  feed: { kind: string; simulated: boolean };
  sessionMode: 'always' | 'market';
  /** whether the visitors' demo dashboard (`GET /api/demo`, /test-dashboard) runs on this server */
  demoAvailable: boolean;
  /** the operator's business details, from configuration (never hard-coded in the web bundle) */
  operator: {
    legalName: string;
    address: string;
    stateCode: string;
    gstin: string;
    supportEmail: string;
    supportPhone: string;
    /** when support answers (SUPPORT_HOURS) */
    supportHours: string;
  };
}

/** `GET /api/plans`: the plans on sale, in the admin's order (the first is the default at checkout). */
export interface PlansResponse {
  plans: PlanDto[];
}

/** An offer's coupon code as `field`: upper-cased, 3 to 40 letters, digits, - or _. */
export function offerCodeSchema(field: string) {
  return z
    .string({ error: `${field} must be text` })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_-]{3,40}$/, `${field} must be 3 to 40 letters, digits, - or _`);
}

/** `POST /api/payment/quote`: what a checkout would cost, with an offer code applied. */
export const checkoutQuoteSchema = z.object({
  planCode: plainText(z.string().trim().min(1).max(40), 'planCode').optional(),
  /** an empty field means no offer */
  offerCode: z.preprocess((v) => (v === '' ? undefined : v), offerCodeSchema('offerCode').optional()),
});

/** `POST /api/payment/create-order`: the browser's amount is ignored; the plan and the offer decide. */
export const createOrderSchema = checkoutQuoteSchema.extend({
  amount: z.unknown().optional(),
  /** who the GST invoice is made out to (state = place of supply; GSTIN for B2B) */
  buyer: buyerSchema.optional(),
});

export type CreateOrderRequest = z.input<typeof createOrderSchema>;

/** The offer applied to a checkout. */
export interface AppliedOfferDto {
  code: string;
  name: string;
  /** e.g. 10 for 10 %; null for a fixed-amount offer */
  discountPercent: number | null;
  /** taken off the plan's price before GST */
  discountPaise: number;
}

/** `POST /api/payment/quote` */
export interface CheckoutQuoteDto {
  /** pricePaise is the taxable value: the plan's price less the offer */
  plan: PlanDto;
  /** the plan's price before any offer */
  listPricePaise: number;
  offer: AppliedOfferDto | null;
}

export interface CreateOrderResponse {
  id: string;
  /** paise */
  amount: number;
  currency: 'INR';
  plan: PlanDto;
  offer: AppliedOfferDto | null;
  testMode: boolean;
  keyId: string | null;
  /** Razorpay's checkout.js to load (live mode only) */
  checkoutUrl: string | null;
}

export const testCheckoutSchema = z.object({
  orderId: plainText(
    z.string({ error: 'orderId is required' }).trim().min(1, 'orderId is required').max(64),
    'orderId',
  ),
});

export const verifyPaymentSchema = z.object({
  razorpay_payment_id: plainText(
    z.string({ error: 'razorpay_payment_id is required' }).trim().min(1).max(64),
    'razorpay_payment_id',
  ),
  razorpay_order_id: plainText(
    z.string({ error: 'razorpay_order_id is required' }).trim().min(1).max(64),
    'razorpay_order_id',
  ),
  razorpay_signature: z
    .string({ error: 'razorpay_signature is required' })
    .trim()
    .regex(/^[0-9a-f]{64}$/, 'razorpay_signature must be 64 hex characters'),
});

export interface CheckoutResult {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

export interface VerifyPaymentResponse {
  success: true;
  message: string;
  subscription: SubscriptionDto;
}

/** `GET /api/payment/invoices`: one of the caller's GST tax invoices. */
export interface InvoiceSummaryDto {
  id: number;
  /** e.g. `OP/26-27/00042` */
  number: string;
  /** epoch ms */
  issuedAt: number;
  description: string;
  taxablePaise: number;
  taxPaise: number;
  totalPaise: number;
}

export interface InvoicesResponse {
  invoices: InvoiceSummaryDto[];
}

/** `GET /api/payment/history`: one of the caller's payments, with the invoice it produced. */
export interface PaymentHistoryItemDto {
  id: number;
  /** epoch ms */
  paidAt: number;
  method: 'razorpay' | 'upi' | 'bank_transfer' | 'test';
  planName: string | null;
  amountPaise: number;
  status: 'captured' | 'failed' | 'refunded';
  invoice: { id: number; number: string } | null;
  /** paise returned so far (processed refunds) */
  refundedPaise: number;
  /** GST credit notes issued against the invoice, oldest first */
  creditNotes: Array<{ id: number; number: string; totalPaise: number }>;
}

export interface PaymentHistoryResponse {
  payments: PaymentHistoryItemDto[];
}

/**
 * `GET /api/strategy` and the `strategy:info` event: the white-box description shown to every subscriber, with the
 * trading day's times it runs on.
 */
export interface StrategyInfoDto {
  name: string;
  intervalMinutes: number;
  rules: string[];
  session: SessionFactsDto;
  params: {
    consecutiveCandles: number;
    minMovement: number;
    entryOffset: number;
    stopLoss: number;
    target: number;
    callEnabled: boolean;
    putEnabled: boolean;
    tradingEnabled: boolean;
    /** the same time as `session.squareOff` */
    squareOffTime: string;
  };
}

/** `GET /api/market/candles?interval=1&limit=300` for the chart's first paint */
export const candlesQuerySchema = z.object({
  interval: z.coerce
    .number({ error: 'interval must be 1, 3, 5 or 15' })
    .refine((v) => [1, 3, 5, 15].includes(v), 'interval must be 1, 3, 5 or 15')
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 1000')
    .max(1000, 'limit must be between 1 and 1000')
    .default(300),
});
