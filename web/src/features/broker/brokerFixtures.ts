// Broker connection DTOs for web tests, one per card state.
import type { BrokerConnectionDto } from '@optionpilot/server/contract';

/** Credentials saved, never logged in. */
export const SAVED_BROKER: BrokerConnectionDto = {
  brokerType: 'zerodha',
  apiKeyMasked: '••••1234',
  status: 'credentials_saved',
  connected: false,
  tokenExpiresAt: null,
  lastError: null,
  session: 'not_connected',
  accountName: null,
  redirectUrl: 'https://op.example.in/broker/zerodha/callback',
  positionCheck: null,
};

/** Logged in until 06:00 IST on 7 Jan 2026. */
export const CONNECTED_BROKER: BrokerConnectionDto = {
  ...SAVED_BROKER,
  status: 'connected',
  connected: true,
  session: 'connected',
  accountName: 'Asha Rao',
  tokenExpiresAt: '2026-01-07T00:30:00.000Z',
};

/** The same session after its expiry. */
export const EXPIRED_BROKER: BrokerConnectionDto = {
  ...CONNECTED_BROKER,
  connected: false,
  session: 'expired',
};
