// Row types: exactly the columns of each table (snake_case), after normalisation by the repositories
// (booleans are true/false on both dialects; BIGINT epoch-ms and paise columns are numbers).
// DTOs for the wire live in `../contract` and are produced by presenters, never by spreading a row.
import type { OrderState } from '@optionpilot/engine/execution/orderTypes';
import type { BrokerType } from '../contract/dto';

export type SubscriptionStatus = 'active' | 'pending' | 'inactive' | 'expired';

export interface UserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  password_hash: string;
  is_admin: boolean;
  subscription_status: SubscriptionStatus;
  subscription_start_at: number | null;
  subscription_end_at: number | null;
  state_code: string | null;
  created_at: number;
  updated_at: number;
  last_active_at: number | null;
  password_changed_at: number | null;
  disabled_at: number | null;
  /** the visitors' demo account: traded on paper, shown read-only at /test-dashboard, never signed in */
  is_demo: boolean;
}

export interface SessionRow {
  /** the JWT `jti` */
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  revoked_reason: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface PasswordResetRow {
  id: number;
  user_id: number;
  /** SHA-256 hex of the random token sent to the user */
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  requested_ip: string | null;
}

export type LogEventType = 'auth' | 'trade' | 'order' | 'admin' | 'payment' | 'error' | 'system' | 'other';

export interface LogRow {
  id: number;
  at: number;
  event_type: string;
  description: string;
  user_id: number | null;
  actor_id: number | null;
  /** JSON text */
  data: string | null;
}

export interface ContactMessageRow {
  id: number;
  name: string;
  email: string;
  message: string;
  user_id: number | null;
  created_at: number;
  handled_at: number | null;
}

export type RiskLevel = 'low' | 'medium' | 'high';

export interface UserSettingsRow {
  user_id: number;
  /**
   * the first version's "risk level": nothing reads or writes it since issue 18 (it changed nothing); the column
   * keeps its default so old rows stay valid
   */
  risk_level: RiskLevel;
  max_daily_loss_paise: number;
  /** HH:MM IST */
  trading_start: string;
  trading_end: string;
  auto_trading: boolean;
  notify_push: boolean;
  notify_trade_execution: boolean;
  notify_pnl_updates: boolean;
  notify_system_alerts: boolean;
  updated_at: number;
}

export type TradingMode = 'paper' | 'live';

export interface TradingSettingsRow {
  user_id: number;
  bot_enabled: boolean;
  order_type: 'SLM' | 'MARKET' | 'LIMIT';
  /** premium points, 15..40 */
  target_points: number;
  /** lots, 1..10 */
  trade_quantity: number;
  mode: TradingMode;
  /** the strategy this subscriber follows; null = the default (built-in) one */
  strategy_id: number | null;
  updated_at: number;
}

/** A canonical broker type as stored (declared once in the contract). */
export type BrokerTypeValue = BrokerType;
export type BrokerAccountStatus = 'credentials_saved' | 'connected' | 'expired' | 'error' | 'disconnected';

export interface BrokerAccountRow {
  id: number;
  user_id: number;
  broker_type: BrokerTypeValue;
  /** sealed with the secret box (`v1:iv:tag:ct`) */
  api_key_enc: string;
  api_secret_enc: string;
  api_key_last4: string;
  broker_user_id: string | null;
  /** the broker's name for the account, learnt at login */
  broker_account_name: string | null;
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: number | null;
  status: BrokerAccountStatus;
  last_error: string | null;
  connected_at: number | null;
  /** JSON: the last reconciliation of positions with the broker (`PositionCheckDto`), null before the first */
  position_check: string | null;
  /** epoch ms the broker refused this server's IP on an order; null while orders may go (see migration) */
  ip_blocked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface BrokerOauthStateRow {
  id: number;
  state: string;
  user_id: number;
  session_id: string | null;
  broker_type: string;
  redirect_uri: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PlanRow {
  id: number;
  code: string;
  name: string;
  /** before GST */
  price_paise: number;
  months: number;
  gst_rate_bp: number;
  active: boolean;
  sort_order: number;
  created_at: number;
  updated_at: number;
}

export interface OfferRow {
  id: number;
  name: string;
  code: string | null;
  /** 1000 = 10%; not read when `discount_paise` is set */
  discount_bp: number;
  /** a fixed discount in paise; null: the offer takes `discount_bp` percent */
  discount_paise: number | null;
  plan_id: number | null;
  valid_from_at: number | null;
  valid_until_at: number | null;
  max_users: number | null;
  used_count: number;
  active: boolean;
  created_at: number;
  updated_at: number;
}

export type PaymentProvider = 'razorpay' | 'test';
export type PaymentOrderStatus = 'created' | 'paid' | 'failed' | 'expired';

export interface PaymentOrderRow {
  id: number;
  user_id: number;
  provider: PaymentProvider;
  provider_order_id: string;
  plan_id: number;
  offer_id: number | null;
  base_paise: number;
  discount_paise: number;
  gst_paise: number;
  /** base − discount + GST: what the user pays */
  amount_paise: number;
  currency: string;
  status: PaymentOrderStatus;
  receipt: string;
  created_at: number;
  paid_at: number | null;
  /** GST state code the buyer chose at checkout (place of supply) */
  buyer_state_code: string | null;
  /** B2B buyer's GSTIN */
  buyer_gstin: string | null;
  /** B2B buyer's business name */
  buyer_name: string | null;
}

export type PaymentRequestStatus = 'pending' | 'approved' | 'rejected';

export interface PaymentRequestRow {
  id: number;
  user_id: number;
  plan_id: number | null;
  method: 'upi' | 'bank_transfer';
  utr_number: string;
  amount_paise: number;
  status: PaymentRequestStatus;
  screenshot_path: string | null;
  admin_notes: string | null;
  reviewed_by: number | null;
  reviewed_at: number | null;
  approved_at: number | null;
  created_at: number;
}

export type PaymentMethod = 'razorpay' | 'upi' | 'bank_transfer' | 'test';
export type PaymentStatus = 'captured' | 'failed' | 'refunded';

export interface PaymentRow {
  id: number;
  user_id: number;
  method: PaymentMethod;
  payment_order_id: number | null;
  payment_request_id: number | null;
  plan_id: number | null;
  provider_payment_id: string | null;
  utr: string | null;
  amount_paise: number;
  status: PaymentStatus;
  paid_at: number;
  created_at: number;
  /** the offer this payment redeemed (its use counted in `offers.used_count`) */
  offer_id: number | null;
}

export interface SubscriptionRow {
  id: number;
  user_id: number;
  plan_id: number | null;
  starts_at: number;
  ends_at: number;
  source: 'payment' | 'admin' | 'trial';
  payment_id: number | null;
  created_by: number | null;
  created_at: number;
}

export interface InvoiceCounterRow {
  /** '2026-27' */
  financial_year: string;
  last_number: number;
  updated_at: number;
}

export interface InvoiceRow {
  id: number;
  financial_year: string;
  /** ≤ 16 characters, unique per financial year */
  number: string;
  user_id: number;
  payment_id: number;
  subscription_id: number | null;
  issued_at: number;
  sac: string;
  description: string;
  /** state code */
  place_of_supply: string;
  recipient_name: string;
  recipient_email: string;
  recipient_state_code: string | null;
  recipient_gstin: string | null;
  taxable_paise: number;
  cgst_rate_bp: number;
  cgst_paise: number;
  sgst_rate_bp: number;
  sgst_paise: number;
  igst_rate_bp: number;
  igst_paise: number;
  total_paise: number;
  /** the offer's discount off the list price: list price = taxable + discount */
  discount_paise: number;
  /** the offer code redeemed, as at issue time */
  offer_code: string | null;
  /** JSON text: supplier name, address, GSTIN, state code at issue time */
  supplier_json: string;
  created_at: number;
}

export type RefundStatus = 'pending' | 'processed' | 'failed';

export interface RefundRow {
  id: number;
  payment_id: number;
  user_id: number;
  amount_paise: number;
  status: RefundStatus;
  provider_refund_id: string | null;
  reason: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** A GST credit note: the refund of (part of) an invoice's value, in its own series. */
export interface CreditNoteRow {
  id: number;
  financial_year: string;
  /** ≤ 16 characters, unique per financial year */
  number: string;
  user_id: number;
  invoice_id: number;
  refund_id: number;
  issued_at: number;
  reason: string;
  taxable_paise: number;
  cgst_paise: number;
  sgst_paise: number;
  igst_paise: number;
  total_paise: number;
  created_at: number;
}

export interface WebhookEventRow {
  id: number;
  provider: string;
  event_id: string;
  event_type: string;
  /** raw JSON body */
  payload: string;
  received_at: number;
  processed_at: number | null;
  error: string | null;
}

export interface UpiSettingsRow {
  /** always 1 */
  id: number;
  upi_id: string;
  account_holder_name: string;
  /** data URL */
  qr_code_image: string | null;
  updated_at: number;
  updated_by: number | null;
}

export interface BankDetailsRow {
  /** always 1 */
  id: number;
  account_holder_name: string;
  account_number: string;
  ifsc: string;
  bank_name: string;
  branch: string | null;
  updated_at: number;
  updated_by: number | null;
}

export interface AdminControlRow {
  setting_name: string;
  value: string;
  updated_at: number;
  updated_by: number | null;
}

export interface StrategyRow {
  id: number;
  code: string;
  name: string;
  description: string;
  type: 'CE' | 'PE' | 'BOTH';
  active: boolean;
  built_in: boolean;
  /** JSON text */
  params: string;
  created_at: number;
  updated_at: number;
}

export type SignalTypeValue = 'CALL' | 'PUT';

export interface SignalRow {
  id: number;
  /** the strategy that produced it; null on signals recorded before strategies were told apart */
  strategy_id: number | null;
  signal_at: number;
  type: SignalTypeValue;
  condition_met: string;
  entry_trigger_x100: number;
  nifty_price_x100: number;
  setup_candle_at: number;
  expires_at: number;
  interval_minutes: number;
  executed: boolean;
  executed_at: number | null;
  executed_price_x100: number | null;
  skipped_reason: string | null;
}

export type TradeStatusValue = 'open' | 'closed' | 'cancelled';

export interface TradeRow {
  id: number;
  user_id: number;
  signal_id: number | null;
  symbol: string;
  instrument: string;
  trade_type: SignalTypeValue;
  option_type: 'CE' | 'PE';
  strike_x100: number;
  expiry_at: number;
  lots: number;
  quantity: number;
  entry_price_paise: number;
  exit_price_paise: number | null;
  stop_loss_paise: number;
  target_paise: number;
  pnl_paise: number | null;
  charges_paise: number;
  status: TradeStatusValue;
  exit_reason: string | null;
  paper: boolean;
  /** JSON text */
  risk_state: string | null;
  opened_at: number;
  closed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The engine's order states, stored as they are (the engine's transition table is the one source of them). */
export type OrderStatusValue = OrderState;

export interface OrderRow {
  id: number;
  client_order_id: string;
  intent_key: string;
  user_id: number;
  trade_id: number | null;
  signal_id: number | null;
  /** 'paper' or a broker type */
  broker: string;
  broker_order_id: string | null;
  symbol: string;
  side: 'BUY' | 'SELL';
  order_type: 'MARKET' | 'LIMIT' | 'SL' | 'SL-M';
  product: 'MIS' | 'NRML';
  quantity: number;
  price_paise: number | null;
  trigger_price_paise: number | null;
  status: OrderStatusValue;
  filled_quantity: number;
  average_price_paise: number;
  /** JSON array text */
  fill_ids: string;
  /** JSON text while MODIFY_PENDING */
  pending_amendment: string | null;
  protected_from: string | null;
  late_fill: boolean;
  tag: string;
  purpose: 'entry' | 'exit' | 'stop';
  /** the n-th exit or stop of its trade; 0 for an entry */
  sequence: number;
  /** the freeze-quantity leg */
  leg: number;
  reject_reason: string | null;
  created_at: number;
  updated_at: number;
}

export interface OrderEventRow {
  id: number;
  order_id: number;
  at: number;
  event_type: string;
  from_status: string | null;
  to_status: string | null;
  /** JSON text */
  data: string | null;
}
