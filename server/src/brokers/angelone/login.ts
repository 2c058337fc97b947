// Angel One's two logins. The form login (primary): the trader types their client code, MPIN and the current TOTP
// each day; they go once to `POST /rest/auth/angelbroking/user/v1/loginByPassword` (`X-PrivateKey` = the app's API
// key; Angel's field is still called `password` though it takes the MPIN) and are never stored or logged. The
// publisher login (for traders whose SmartAPI app has a redirect URL): `<ANGELONE_LOGIN_URL>?api_key=…&state=…`
// sends the browser back with `auth_token` (the JWT), `feed_token`, `refresh_token` and the `state`. Either way the
// profile call names the account, and the session ends at the next 00:00 IST.
import { BrokerError } from '@optionpilot/engine';
import type { BrokerLoginFieldDto } from '../../contract';
import type { BrokerCredentials, BrokerSession, CallbackQuery } from '../types';
import { AngelHttp } from './http';
import { encodeAngelTokens, nextAngelExpiry } from './session';
import { angelLoginSchema, angelProfileSchema } from './wire';

export const ANGEL_LOGIN_PATH = '/rest/auth/angelbroking/user/v1/loginByPassword';
export const ANGEL_PROFILE_PATH = '/rest/secure/angelbroking/user/v1/getProfile';

/** What the daily login dialog asks for; the server checks each value against its pattern before Angel sees it. */
export const ANGEL_LOGIN_FIELDS: readonly BrokerLoginFieldDto[] = [
  {
    name: 'clientCode',
    label: 'Client code',
    kind: 'text',
    pattern: '[A-Za-z0-9]{4,16}',
    hint: 'your Angel One client ID: 4-16 letters or digits, such as A123456',
  },
  {
    name: 'mpin',
    label: 'MPIN',
    kind: 'secret',
    pattern: '\\d{4}',
    hint: 'the 4-digit MPIN of your Angel One account',
  },
  {
    name: 'totp',
    label: 'TOTP',
    kind: 'otp',
    pattern: '\\d{6}',
    hint: 'the 6-digit code your authenticator app shows for Angel One now',
  },
];

export interface AngelLoginContext {
  readonly apiRoot: string;
  readonly egressIp?: string;
  readonly macAddress: string;
  readonly now: number;
}

/** The account the JWT belongs to (`getProfile`); throws `BrokerError`. */
export async function angelProfile(
  context: Omit<AngelLoginContext, 'now'>,
  apiKey: string,
  jwt: string,
): Promise<{ clientCode: string; name: string }> {
  const http = new AngelHttp({ ...context, apiKey, jwt });
  const profile = await http.request({ method: 'GET', path: ANGEL_PROFILE_PATH, schema: angelProfileSchema });
  return { clientCode: profile.clientcode, name: profile.name };
}

async function sessionOf(
  context: AngelLoginContext,
  apiKey: string,
  tokens: { jwt: string; feedToken: string },
): Promise<BrokerSession> {
  const profile = await angelProfile(context, apiKey, tokens.jwt);
  return {
    accessToken: encodeAngelTokens({ ...tokens, clientCode: profile.clientCode }),
    expiresAt: nextAngelExpiry(context.now),
    accountId: profile.clientCode,
    accountName: profile.name,
  };
}

/** The form login: the typed values go to Angel once; throws `BrokerError`. */
export async function completeAngelFormLogin(
  context: AngelLoginContext,
  input: { credentials: BrokerCredentials; values: Readonly<Record<string, string>> },
): Promise<BrokerSession> {
  const http = new AngelHttp({ ...context, apiKey: input.credentials.apiKey });
  const data = await http.request({
    method: 'POST',
    path: ANGEL_LOGIN_PATH,
    body: {
      clientcode: (input.values.clientCode ?? '').toUpperCase(),
      password: input.values.mpin ?? '',
      totp: input.values.totp ?? '',
    },
    schema: angelLoginSchema,
  });
  return sessionOf(context, input.credentials.apiKey, { jwt: data.jwtToken, feedToken: data.feedToken });
}

/** The publisher-login URL for a trader's app; `state` comes back on the redirect. */
export function angelPublisherLoginUrl(loginUrl: string, apiKey: string, state: string): string {
  const url = new URL(loginUrl);
  url.searchParams.set('api_key', apiKey);
  url.searchParams.set('state', state);
  return url.toString();
}

/** The publisher login's redirect: its tokens are checked by reading the profile with them; throws `BrokerError`. */
export async function completeAngelRedirectLogin(
  context: AngelLoginContext,
  input: { credentials: BrokerCredentials; query: CallbackQuery },
): Promise<BrokerSession> {
  const jwt = input.query.auth_token;
  const feedToken = input.query.feed_token;
  if (!jwt || !feedToken) {
    throw new BrokerError('rejected', 'NO_TOKEN', 'Angel One login did not return its tokens', 'angelone');
  }
  return sessionOf(context, input.credentials.apiKey, { jwt, feedToken });
}
