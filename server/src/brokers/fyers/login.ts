// Fyers API v3's redirect login: the browser goes to `generate-authcode?client_id=…&redirect_uri=…&
// response_type=code&state=…` and comes back to the app's redirect URL with `s=ok&code=200&auth_code=…&state=…`;
// the single-use, short-lived auth code is exchanged at `POST /api/v3/validate-authcode` with
// appIdHash = hex(sha256(app_id + ":" + app_secret)). The token answer names no account, so the profile is read next.
import { createHash } from 'node:crypto';
import { addDays, istDate, istDateTime } from '@optionpilot/engine';
import { z } from 'zod';
import type { BrokerCredentials, BrokerSession, CallbackQuery } from '../types';
import { FyersHttp, fyersFailure } from './http';

/** The Fyers login URL of a trader's app; `state` comes back on the redirect. */
export function fyersLoginUrl(
  loginUrl: string,
  input: { appId: string; state: string; redirectUri: string },
): string {
  const url = new URL(loginUrl);
  url.searchParams.set('client_id', input.appId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('state', input.state);
  return url.toString();
}

/** hex(sha256(app_id + ":" + app_secret)), the `appIdHash` of validate-authcode. */
export function appIdHash(appId: string, appSecret: string): string {
  return createHash('sha256').update(`${appId}:${appSecret}`).digest('hex');
}

/** Fyers sessions end at 06:00 IST: the next 06:00 after `now`. */
export function nextFyersExpiry(now: number): number {
  const today = istDate(now);
  const sixToday = istDateTime(today, 6 * 60);
  return now < sixToday ? sixToday : istDateTime(addDays(today, 1), 6 * 60);
}

const tokenSchema = z.object({ s: z.literal('ok'), access_token: z.string().min(1) });

export const fyersProfileSchema = z.object({
  s: z.literal('ok'),
  data: z.object({ fy_id: z.string().min(1), name: z.string().default('') }),
});

/** Reads the account behind a session: Fyers id and name. */
export async function fyersProfile(http: FyersHttp): Promise<{ accountId: string; name: string }> {
  const body = await http.request({ method: 'GET', path: '/api/v3/profile', schema: fyersProfileSchema });
  return { accountId: body.data.fy_id, name: body.data.name };
}

/** Exchanges the callback's auth code for a session; throws `BrokerError`. */
export async function completeFyersLogin(input: {
  apiRoot: string;
  credentials: BrokerCredentials;
  query: CallbackQuery;
  now: number;
}): Promise<BrokerSession> {
  const authCode = input.query.auth_code;
  if (input.query.s !== 'ok' || !authCode) {
    // The trader cancelled or Fyers refused the login: nothing to exchange.
    throw fyersFailure({ code: input.query.code ?? '-374' });
  }
  const { apiKey: appId, apiSecret } = input.credentials;
  const token = await new FyersHttp({ apiRoot: input.apiRoot, appId }).request({
    method: 'POST',
    path: '/api/v3/validate-authcode',
    json: { grant_type: 'authorization_code', appIdHash: appIdHash(appId, apiSecret), code: authCode },
    schema: tokenSchema,
  });
  const profile = await fyersProfile(
    new FyersHttp({ apiRoot: input.apiRoot, appId, accessToken: token.access_token }),
  );
  return {
    accessToken: token.access_token,
    expiresAt: nextFyersExpiry(input.now),
    accountId: profile.accountId,
    accountName: profile.name,
  };
}
