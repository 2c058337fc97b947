import type { BrokerConnectionDto, BrokerSessionState } from '../contract';
import type { BrokerAccountRow } from '../db';
import { parsePositionCheck } from '../trading/positionChecks';
import { isoOrNull } from './time';
import { brokerRedirectUrl } from '../brokers/urls';

type SessionFields = Pick<BrokerAccountRow, 'status' | 'token_expires_at' | 'access_token_enc'> &
  Partial<Pick<BrokerAccountRow, 'ip_blocked_at'>>;

/**
 * Connected only while a token is stored and its expiry is ahead of `now`: brokers end sessions daily (Kite 06:00
 * IST, Upstox ≈ 03:30 IST) without telling us, so the stored status alone would say "connected" all next morning.
 * A valid session whose orders the broker refused for this server's IP is `ip_blocked` until the trader resumes.
 */
export function brokerSessionState(row: SessionFields, now: number): BrokerSessionState {
  if (row.status === 'expired') return 'expired';
  if (row.status !== 'connected') return 'not_connected';
  const live = row.access_token_enc !== null && row.token_expires_at !== null && row.token_expires_at > now;
  if (!live) return 'expired';
  return row.ip_blocked_at === null || row.ip_blocked_at === undefined ? 'connected' : 'ip_blocked';
}

export { brokerRedirectUrl } from '../brokers/urls';

/**
 * BrokerAccountRow → its masked view. Built from `api_key_last4` only: no sealed column is read, so no secret (or
 * ciphertext) can reach a response.
 */
export function presentBrokerConnection(
  row: BrokerAccountRow,
  // Admin listings that have no injected clock judge the session by wall time and show a site-relative redirect URL.
  context: { now: number; publicUrl: string } = { now: Date.now(), publicUrl: '' },
): BrokerConnectionDto {
  const session = brokerSessionState(row, context.now);
  return {
    brokerType: row.broker_type,
    apiKeyMasked: `••••${row.api_key_last4}`,
    status: row.status,
    connected: session === 'connected',
    tokenExpiresAt: isoOrNull(row.token_expires_at),
    lastError: row.last_error,
    session,
    accountName: session === 'not_connected' ? null : row.broker_account_name,
    redirectUrl: brokerRedirectUrl(context.publicUrl, row.broker_type),
    positionCheck: parsePositionCheck(row.position_check),
  };
}
