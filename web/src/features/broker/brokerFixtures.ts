// Broker connection DTOs and broker offers for web tests, one per card state.
import {
  BROKER_LABELS,
  type BrokerConnectionDto,
  type BrokerLoginFieldDto,
  type BrokerOfferDto,
  type BrokerType,
} from '@optionpilot/server/contract';

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

/** The orders of this session were refused for the server's IP. */
export const IP_BLOCKED_BROKER: BrokerConnectionDto = {
  ...CONNECTED_BROKER,
  connected: false,
  session: 'ip_blocked',
  lastError:
    "The broker refused our server's IP address. Under SEBI's rules API orders are accepted only from an IP address you whitelist in your broker app: add the static IP shown here and try again. This server's IP address: 203.0.113.77.",
};

/** One broker as `GET /api/brokers` lists it: a redirect login when available, unless `form` is given. */
export function brokerOffer(
  type: BrokerType,
  available: boolean,
  options: { label?: string; form?: BrokerLoginFieldDto[]; redirectLogin?: boolean } = {},
): BrokerOfferDto {
  const label = options.label ?? BROKER_LABELS[type];
  if (!available) return { type, label, available, loginKind: null, setup: null };
  const redirect = options.form === undefined || options.redirectLogin === true;
  return {
    type,
    label,
    available,
    loginKind: options.form === undefined ? 'redirect' : 'form',
    ...(options.form === undefined
      ? {}
      : { fields: options.form, submitPath: '/api/user/broker/login', redirectLogin: redirect }),
    setup: {
      portal: { name: `${label} developer console`, url: `https://developers.${type}.example/apps` },
      credentialLabels: { apiKey: 'API key', apiSecret: 'API secret' },
      redirectUrl: redirect ? `https://op.example.in/broker/${type}/callback` : null,
      postbackUrl: null,
      sessionEnds: '06:00 IST',
      notes: [],
    },
  };
}

/** Angel One's form login fields, as its module declares them. */
export const ANGEL_FORM_FIELDS: BrokerLoginFieldDto[] = [
  {
    name: 'clientCode',
    label: 'Client code',
    kind: 'text',
    pattern: '[A-Za-z0-9]{4,12}',
    hint: '4-12 letters or digits',
  },
  { name: 'mpin', label: 'MPIN', kind: 'secret', pattern: '\\d{4}', hint: 'your 4-digit MPIN' },
  {
    name: 'totp',
    label: 'TOTP',
    kind: 'otp',
    pattern: '\\d{6}',
    hint: 'the 6-digit code of your authenticator app',
  },
];
