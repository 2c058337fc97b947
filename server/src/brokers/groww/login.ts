// Groww's daily login: the trader's API key (Groww Cloud → Trading APIs) is exchanged for an access token at
// `POST /v1/token/api/access` with `Authorization: Bearer <API key>`, in one of two ways Groww documents:
// - approval: `{key_type: "approval", checksum: hex(sha256(secret + timestamp)), timestamp}` (epoch seconds as text,
//   valid 10 minutes) — the key must first be approved for the day on Groww's API keys page;
// - TOTP: `{key_type: "totp", totp}` with the 6-digit code of the key's authenticator.
// Both are one form login here: the dialog asks for the TOTP, and an empty TOTP means "approval" (the saved secret
// makes the checksum). The token ends at 06:00 IST; `GET /v1/user/detail` names the account by its UCC.
import { createHash } from 'node:crypto';
import type { BrokerLoginFieldDto } from '../../contract';
import type { BrokerCredentials, BrokerSession } from '../types';
import { nextKiteExpiry } from '../zerodha/login';
import { GrowwHttp } from './http';
import { growwTokenSchema, growwUserSchema } from './wire';

export const GROWW_TOKEN_PATH = '/v1/token/api/access';
export const GROWW_USER_PATH = '/v1/user/detail';

/** What the daily dialog asks for: the TOTP, or nothing once the key is approved in Groww today. */
export const GROWW_LOGIN_FIELDS: readonly BrokerLoginFieldDto[] = [
  {
    name: 'totp',
    label: 'TOTP (leave empty if you approved your key in Groww today)',
    kind: 'otp',
    pattern: '(?:\\d{6})?',
    hint: 'the 6-digit code your authenticator shows for your Groww API key, or empty after approving the key on Groww’s API keys page',
  },
];

/** Groww's checksum of the approval flow: hex SHA-256 of the API secret followed by the timestamp. */
export function growwChecksum(secret: string, timestamp: string): string {
  return createHash('sha256')
    .update(secret + timestamp)
    .digest('hex');
}

/** Groww's tokens end at 06:00 IST, as Kite's do: the next 06:00 IST after `now`. */
export const nextGrowwExpiry = nextKiteExpiry;

/** The account an access token belongs to; throws `BrokerError`. */
export async function growwProfile(apiRoot: string, accessToken: string): Promise<{ ucc: string }> {
  const http = new GrowwHttp({ apiRoot, bearer: accessToken });
  const user = await http.request({ method: 'GET', path: GROWW_USER_PATH, schema: growwUserSchema });
  return { ucc: user.ucc };
}

/** The form login: one token call (TOTP or approval), then the profile; throws `BrokerError`. */
export async function completeGrowwLogin(
  context: { apiRoot: string; now: number },
  input: { credentials: BrokerCredentials; values: Readonly<Record<string, string>> },
): Promise<BrokerSession> {
  const totp = (input.values.totp ?? '').trim();
  const timestamp = String(Math.floor(context.now / 1_000));
  const body =
    totp === ''
      ? {
          key_type: 'approval',
          checksum: growwChecksum(input.credentials.apiSecret, timestamp),
          timestamp,
        }
      : { key_type: 'totp', totp };
  const http = new GrowwHttp({ apiRoot: context.apiRoot, bearer: input.credentials.apiKey });
  const answer = await http.request({
    method: 'POST',
    path: GROWW_TOKEN_PATH,
    body,
    schema: growwTokenSchema,
  });
  const profile = await growwProfile(context.apiRoot, answer.token);
  return {
    accessToken: answer.token,
    expiresAt: nextGrowwExpiry(context.now),
    accountId: profile.ucc,
    accountName: `Groww ${profile.ucc}`,
  };
}
