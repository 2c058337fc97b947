// Kite Connect's login: the browser goes to `/connect/login?v=3&api_key=…` and comes back to the app's redirect
// URL with `request_token` plus whatever was passed in `redirect_params` (where our OAuth `state` travels); the
// token is exchanged at `POST /session/token` with checksum = hex(sha256(api_key + request_token + api_secret)).
import { createHash } from 'node:crypto';
import { addDays, istDate, istDateTime } from '@optionpilot/engine';
import type { BrokerCredentials, BrokerSession, CallbackQuery } from '../types';
import { KiteHttp, kiteError } from './http';
import { kiteSessionSchema } from './wire';

/** The Kite login URL for a trader's app; `state` comes back in the callback query. */
export function kiteLoginUrl(loginRoot: string, apiKey: string, state: string): string {
  const url = new URL(loginRoot);
  url.searchParams.set('v', '3');
  url.searchParams.set('api_key', apiKey);
  url.searchParams.set('redirect_params', new URLSearchParams({ state }).toString());
  return url.toString();
}

/** Kite sessions end at 06:00 IST: the next 06:00 after `now`. */
export function nextKiteExpiry(now: number): number {
  const today = istDate(now);
  const sixToday = istDateTime(today, 6 * 60);
  return now < sixToday ? sixToday : istDateTime(addDays(today, 1), 6 * 60);
}

export function sessionChecksum(apiKey: string, requestToken: string, apiSecret: string): string {
  return createHash('sha256')
    .update(apiKey + requestToken + apiSecret)
    .digest('hex');
}

/** Exchanges the callback's request token for a session; throws `BrokerError`. */
export async function completeKiteLogin(input: {
  apiRoot: string;
  credentials: BrokerCredentials;
  query: CallbackQuery;
  now: number;
}): Promise<BrokerSession> {
  const requestToken = input.query.request_token;
  if (input.query.status !== 'success' || !requestToken) {
    throw kiteError({ errorType: 'InputException', message: 'Kite login did not succeed' });
  }
  const { apiKey, apiSecret } = input.credentials;
  const http = new KiteHttp({ apiRoot: input.apiRoot, apiKey });
  const data = await http.request({
    method: 'POST',
    path: '/session/token',
    form: {
      api_key: apiKey,
      request_token: requestToken,
      checksum: sessionChecksum(apiKey, requestToken, apiSecret),
    },
    schema: kiteSessionSchema,
  });
  return {
    accessToken: data.access_token,
    expiresAt: nextKiteExpiry(input.now),
    accountId: data.user_id,
    accountName: data.user_name,
  };
}
