// Alice Blue's vendor (redirect) login. The browser goes to `<ALICEBLUE_LOGIN_URL>?appcode=<app code>`; after the
// trader logs in there, ANT sends it to the app's registered redirect URL with `authCode` and `userId`. The code
// becomes a session at `POST /rest/AliceBlueAPIService/sso/getUserDetails` with
// `checkSum = hex(sha256(userId + authCode + apiSecret))`, answered `{stat: "Ok", userSession}`. A session lasts
// 24 hours (there is no refresh); the account's name comes from `customer/accountDetails`.
//
// What a session keeps: the client id (every call's `Authorization: Bearer <userId> <userSession>` and the
// socket's `uid`) and the user session, as a small JSON the server stores sealed.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BrokerError } from '@optionpilot/engine';
import type { BrokerCredentials, BrokerSession, CallbackQuery } from '../types';
import { AliceHttp, alicePostAnonymous } from './http';
import { aliceProfileSchema, aliceUserDetailsSchema } from './wire';

export const ALICE_SSO_PATH = '/rest/AliceBlueAPIService/sso/getUserDetails';
export const ALICE_PROFILE_PATH = '/customer/accountDetails';

/** ANT sessions end 24 hours after the login. */
export const ALICE_SESSION_MS = 24 * 60 * 60_000;

export interface AliceTokens {
  /** the Alice Blue client id */
  readonly userId: string;
  readonly userSession: string;
}

const storedSchema = z.object({ v: z.literal(1), uid: z.string().min(1), session: z.string().min(1) });

/** The session's opaque token. */
export function encodeAliceTokens(tokens: AliceTokens): string {
  return JSON.stringify({ v: 1, uid: tokens.userId, session: tokens.userSession });
}

/** The tokens of a stored session; a token of another form is a session to log in again. */
export function decodeAliceTokens(accessToken: string): AliceTokens {
  let raw: unknown;
  try {
    raw = JSON.parse(accessToken);
  } catch {
    raw = undefined;
  }
  const parsed = storedSchema.safeParse(raw);
  if (!parsed.success) {
    throw new BrokerError(
      'auth_expired',
      'BAD_SESSION',
      'stored Alice Blue session not understood',
      'aliceblue',
    );
  }
  return { userId: parsed.data.uid, userSession: parsed.data.session };
}

/** `hex(sha256(userId + authCode + apiSecret))`, the vendor login's checksum. */
export function aliceCheckSum(userId: string, authCode: string, apiSecret: string): string {
  return createHash('sha256').update(`${userId}${authCode}${apiSecret}`).digest('hex');
}

/**
 * The login URL for a trader's app. ANT's documentation names only `appcode`; `state` rides along for the
 * callback's single-use check (**verify** that ANT echoes it; README.md).
 */
export function aliceLoginUrl(loginUrl: string, appCode: string, state: string): string {
  const url = new URL(loginUrl);
  url.searchParams.set('appcode', appCode);
  url.searchParams.set('state', state);
  return url.toString();
}

/** The account a session belongs to (`customer/accountDetails`); throws `BrokerError`. */
export async function aliceProfile(
  apiRoot: string,
  tokens: AliceTokens,
): Promise<{ accountId: string; name: string }> {
  const http = new AliceHttp({ apiRoot, ...tokens });
  const profile = await http.request({ method: 'GET', path: ALICE_PROFILE_PATH, schema: aliceProfileSchema });
  return { accountId: profile.accountId, name: profile.accountName };
}

/** The redirect's `authCode` and `userId` exchanged for a session; throws `BrokerError`. */
export async function completeAliceLogin(
  context: { apiRoot: string; now: number },
  input: { credentials: BrokerCredentials; query: CallbackQuery },
): Promise<BrokerSession> {
  const authCode = input.query.authCode;
  const userId = input.query.userId;
  if (!authCode || !userId) {
    throw new BrokerError(
      'rejected',
      'NO_AUTH_CODE',
      'Alice Blue login did not return its code',
      'aliceblue',
    );
  }
  const details = await alicePostAnonymous(
    `${context.apiRoot}${ALICE_SSO_PATH}`,
    { checkSum: aliceCheckSum(userId, authCode, input.credentials.apiSecret) },
    aliceUserDetailsSchema,
  );
  const tokens = { userId: details.clientId ?? userId, userSession: details.userSession };
  const profile = await aliceProfile(context.apiRoot, tokens);
  return {
    accessToken: encodeAliceTokens(tokens),
    expiresAt: context.now + ALICE_SESSION_MS,
    accountId: profile.accountId,
    accountName: profile.name,
  };
}
