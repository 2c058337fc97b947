// Row types: exactly the columns of each table (snake_case), after normalisation by the repositories
// (booleans are true/false on both dialects; BIGINT epoch-ms and paise columns are numbers).
// DTOs for the wire live in `../contract` and are produced by presenters, never by spreading a row.

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
