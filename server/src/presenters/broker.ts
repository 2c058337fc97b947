import type { BrokerConnectionDto } from '../contract';
import type { BrokerAccountRow } from '../db';
import { isoOrNull } from './time';

/**
 * BrokerAccountRow → its masked view. Built from `api_key_last4` only: no sealed column is read, so no secret (or
 * ciphertext) can reach a response.
 */
export function presentBrokerConnection(row: BrokerAccountRow): BrokerConnectionDto {
  return {
    brokerType: row.broker_type,
    apiKeyMasked: `••••${row.api_key_last4}`,
    status: row.status,
    connected: row.status === 'connected',
    tokenExpiresAt: isoOrNull(row.token_expires_at),
    lastError: row.last_error,
  };
}
