// Upstox OAuth2 login: the authorization dialog, the callback's `code` and its exchange for an access token.
import { BrokerError, istMidnightOf } from '@optionpilot/engine';
import { z } from 'zod';
import type { BrokerCredentials, BrokerSession, CallbackQuery } from '../types';
import { upstoxRequest } from './http';

const DAY_MS = 86_400_000;
/** 03:30 IST, in ms after IST midnight. */
const EXPIRY_IST_MS = (3 * 60 + 30) * 60_000;

/**
 * When a token issued at `now` stops working: the next 03:30 IST strictly after `now`. Upstox ends every token at
 * 03:30 IST whenever it was issued; a token issued between midnight and 03:30 is taken to end the same morning,
 * the earlier of the two readings, so the card never shows a session as valid after Upstox has ended it.
 */
export function upstoxTokenExpiry(now: number): number {
  const sameDay = istMidnightOf(now) + EXPIRY_IST_MS;
  return sameDay > now ? sameDay : sameDay + DAY_MS;
}

/** The authorization dialog URL the trader's browser is sent to. */
export function upstoxLoginUrl(
  dialogUrl: string,
  input: { credentials: BrokerCredentials; state: string; redirectUri: string },
): string {
  const url = new URL(dialogUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', input.credentials.apiKey);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('state', input.state);
  return url.toString();
}

// The token response is not wrapped in `{ status, data }` (DOMAIN.md §3).
const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  user_id: z.string().min(1),
  user_name: z.string().default(''),
});

/** Exchanges the callback's single-use `code` for a session; throws `BrokerError`. */
export async function completeUpstoxLogin(props: {
  apiRoot: string;
  now: () => number;
  credentials: BrokerCredentials;
  query: CallbackQuery;
  redirectUri: string;
}): Promise<BrokerSession> {
  const code = props.query.code;
  if (code === undefined || code === '') {
    throw new BrokerError('rejected', 'NO_CODE', 'upstox callback without an authorization code', 'upstox');
  }
  const body = await upstoxRequest({
    method: 'POST',
    url: `${props.apiRoot}/v2/login/authorization/token`,
    form: {
      code,
      client_id: props.credentials.apiKey,
      client_secret: props.credentials.apiSecret,
      redirect_uri: props.redirectUri,
      grant_type: 'authorization_code',
    },
  });
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success) {
    throw new BrokerError('rejected', 'BAD_TOKEN_RESPONSE', 'upstox token response not understood', 'upstox');
  }
  return {
    accessToken: parsed.data.access_token,
    expiresAt: upstoxTokenExpiry(props.now()),
    accountId: parsed.data.user_id,
    accountName: parsed.data.user_name,
  };
}
