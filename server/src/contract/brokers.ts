// Contract of the broker connection lifecycle (connect → broker login → callback → session) and of the per-trader
// Paper / Live mode. Types and zod only (web/ imports this file).
import { z } from 'zod';
import type { BrokerType } from './dto';
import { brokerTypeSchema, type BrokerConnectionDto } from './user';

/** How a trader logs in to a broker each day: at the broker's own page (redirect), or by typing into a form. */
export type BrokerLoginKind = 'redirect' | 'form';

/** One value a form login asks for (e.g. Angel One's `clientCode`, `mpin`, `totp`). */
export interface BrokerLoginFieldDto {
  /** the key in the submitted `fields` object */
  name: string;
  label: string;
  /** `secret` and `otp` are masked and never kept by the browser after the submit */
  kind: 'text' | 'secret' | 'otp';
  /** a regular expression (source) the whole value must match */
  pattern: string;
  /** what the pattern asks for, in words (also the server's message on a mismatch) */
  hint: string;
}

/** What a trader sets up at the broker before connecting: shown on the card before anything is saved. */
export interface BrokerSetupDto {
  /** where the API app is created */
  portal: { name: string; url: string };
  /** what the broker calls the app's key and secret */
  credentialLabels: { apiKey: string; apiSecret: string };
  /** the redirect URL to register in the app (`{origin}/broker/{broker}/callback`); null when no redirect login */
  redirectUrl: string | null;
  /** the postback URL to register in the app, for brokers that push order updates over HTTP; else null */
  postbackUrl: string | null;
  /** when the broker ends sessions each day, in words */
  sessionEnds: string;
  notes: string[];
}

/** One broker of the select and the landing page: only `available` ones have a working integration. */
export interface BrokerOfferDto {
  type: BrokerType;
  label: string;
  available: boolean;
  /** how the trader logs in each day; null for a broker that is not available */
  loginKind: BrokerLoginKind | null;
  /** a form login's fields */
  fields?: BrokerLoginFieldDto[];
  /** a form login's endpoint (`POST`, JSON `{ fields }`) */
  submitPath?: string;
  /** a form-login broker that also offers its own login page (Connect goes there) */
  redirectLogin?: boolean;
  /** setup steps; null for a broker that is not available */
  setup: BrokerSetupDto | null;
}

/** `GET /api/brokers` (public). */
export interface BrokersResponse {
  brokers: BrokerOfferDto[];
  /** the static IP traders whitelist in their broker app (EGRESS_IP); null when the operator has not set it */
  egressIp: string | null;
}

/**
 * The card's states: a session valid now; one whose orders the broker refused for this server's IP (valid, but no
 * order goes until the trader has whitelisted the IP); one that has run out; or none at all.
 */
export type BrokerSessionState = 'connected' | 'ip_blocked' | 'expired' | 'not_connected';

/** `POST /api/user/broker/connect` takes no fields. */
export const brokerConnectSchema = z.strictObject({}, { error: 'this request takes no fields' });

/** `POST /api/user/broker/connect`: where the browser goes next. */
export interface BrokerConnectResponse {
  /** the broker's login page, carrying a single-use `state` */
  loginUrl: string;
  /** when the state stops being accepted, ISO-8601 */
  expiresAt: string;
}

/** The query of `/broker/{broker}/callback`, as the web page forwards it: flat strings, bounded. */
export const brokerCallbackSchema = z.object({
  broker: brokerTypeSchema,
  query: z
    .record(
      z.string().max(64, 'query keys are at most 64 characters'),
      z.string({ error: 'query values must be text' }).max(2048, 'query values are at most 2048 characters'),
      { error: 'query must be an object of text values' },
    )
    .refine((q) => Object.keys(q).length <= 20, 'query has too many parameters'),
});

/** `POST /api/user/broker/login`: a form login's typed values, checked against the broker's fields on the server. */
export const brokerFormLoginSchema = z.strictObject(
  {
    fields: z
      .record(
        z.string().max(32, 'field names are at most 32 characters'),
        z
          .string({ error: 'fields values must be text' })
          .max(128, 'fields values are at most 128 characters'),
        { error: 'fields must be an object of text values' },
      )
      .refine((f) => Object.keys(f).length <= 8, 'fields has too many entries'),
  },
  { error: 'the body must be { fields }' },
);

/** `POST /api/user/broker/resume`: the trader has whitelisted the server's IP; takes no fields. */
export const brokerResumeSchema = z.strictObject({}, { error: 'this request takes no fields' });

/** `POST /api/user/broker/callback` and `DELETE /api/user/broker/session`. */
export interface BrokerSessionResponse {
  success: true;
  message: string;
  broker: BrokerConnectionDto;
}

/** The risk disclosure a trader accepts to switch to Live; the web shows this exact text. */
export const LIVE_RISK_DISCLOSURE =
  'Live mode places real orders in your own broker account with real money. Options can lose their whole ' +
  'premium in minutes, and most retail traders in equity derivatives lose money (SEBI study). Past results, ' +
  'backtests and paper trades do not promise future returns. You can switch back to Paper at any time; open ' +
  'positions stay with your broker until they are closed.';

/** `PUT /api/user/trading-mode`: Live needs the disclosure accepted in the same request. */
export const tradingModeSchema = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('paper') }),
    z.object({
      mode: z.literal('live'),
      acceptRisk: z.literal(true, {
        error: 'acceptRisk must be true: confirm the risk disclosure to go live',
      }),
    }),
  ],
  { error: 'mode must be paper or live' },
);

/** `GET/PUT /api/user/trading-mode`. */
export interface TradingModeDto {
  /** what the trader chose */
  mode: 'paper' | 'live';
  /** what the engine trades the user in now (its bot status): live only while the session is valid and the runtime routes live */
  effectiveMode: 'paper' | 'live';
  /** a valid broker session exists now, so Live can be chosen */
  liveAvailable: boolean;
  riskDisclosure: string;
}
