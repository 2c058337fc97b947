// The only way a user leaves the server. Fields are copied one by one: a new column (or the password hash) can
// never reach a response by accident.
import type { BrokerType, UserDto } from '../contract';
import type { BrokerAccountRow, UserRow } from '../db';
import { brokerSessionState } from './broker';
import { iso, isoOrNull } from './time';

/** What the user presenter needs to know of the user's broker connection (owned by the broker module). */
export interface UserBrokerSummary {
  brokerType: BrokerType;
  connected: boolean;
}

/** What a user's broker account means for UserDto: connected only while the broker session is live at `now`. */
export function brokerSummaryOf(
  account: Pick<BrokerAccountRow, 'broker_type' | 'status' | 'token_expires_at' | 'access_token_enc'>,
  // Admin listings without an injected clock judge by wall time; user-facing routes pass deps.clock.now().
  now: number = Date.now(),
): UserBrokerSummary {
  return { brokerType: account.broker_type, connected: brokerSessionState(account, now) === 'connected' };
}

/** UserRow (+ broker summary when the caller has it) → UserDto. */
export function presentUser(user: UserRow, broker: UserBrokerSummary | null = null): UserDto {
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    phone: user.phone,
    isAdmin: user.is_admin,
    brokerType: broker?.brokerType ?? null,
    brokerConnected: broker?.connected ?? false,
    subscriptionStatus: user.subscription_status,
    subscriptionStartDate: isoOrNull(user.subscription_start_at),
    subscriptionEndDate: isoOrNull(user.subscription_end_at),
    createdAt: iso(user.created_at),
    lastActive: isoOrNull(user.last_active_at),
  };
}
