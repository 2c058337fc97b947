// Dhan's two logins, both ending in a 24-hour access token (Dhan has no refresh). The consent login (redirect):
// `POST <DHAN_LOGIN_URL root>/app/generate-consent?client_id=<Dhan client id>` with the app's `app_id` /
// `app_secret` headers answers a `consentAppId`; the browser logs in at `/login/consentApp-login?consentAppId=…`;
// Dhan sends it back to the app's redirect URL with `tokenId` and nothing else (no `state` is echoed, see
// README.md for how the login stays bound to the trader's session); `GET /app/consumeApp-consent?tokenId=…` (same
// headers) answers `accessToken`, `dhanClientId`, `dhanClientName` and `expiryTime`. The pasted token (form): the
// trader generates a 24 h token on web.dhan.co and pastes it with their client id; `GET /v2/profile` checks it.
// Either way the account must be the client id the trader declared: a token of another account is refused.
import { z } from 'zod';
import { BrokerError, isBrokerError, IST_OFFSET_MS } from '@optionpilot/engine';
import type { BrokerLoginFieldDto } from '../../contract';
import type { BrokerCredentials, BrokerSession, CallbackQuery } from '../types';
import { dhanCall, DhanHttp } from './http';
import { dhanProfileSchema } from './wire';

export const DHAN_PROFILE_PATH = '/v2/profile';
export const DHAN_CONSENT_PATHS = {
  generate: '/app/generate-consent',
  login: '/login/consentApp-login',
  consume: '/app/consumeApp-consent',
} as const;

/** Dhan access tokens last 24 hours from their issue. */
export const DHAN_TOKEN_LIFETIME_MS = 24 * 3_600_000;

const CLIENT_ID = '\\d{6,12}';

/** What the pasted-token dialog asks for; the server checks each value against its pattern before Dhan sees it. */
export const DHAN_LOGIN_FIELDS: readonly BrokerLoginFieldDto[] = [
  {
    name: 'clientId',
    label: 'Dhan client ID',
    kind: 'text',
    pattern: CLIENT_ID,
    hint: 'your Dhan client ID: 6-12 digits, as shown on web.dhan.co under My Profile',
  },
  {
    name: 'accessToken',
    label: 'Access token',
    kind: 'secret',
    pattern: '[A-Za-z0-9._\\-]{20,2048}',
    hint: 'the access token generated on web.dhan.co → My Profile → Access DhanHQ APIs (valid 24 hours)',
  },
];

/**
 * The saved credentials: Dhan's API key and secret, the key saved as `<client id>:<API key>` because the consent
 * login must name the account before anyone has logged in (the framework stores two values per broker).
 */
export function dhanAppOf(credentials: BrokerCredentials): {
  clientId: string;
  appId: string;
  appSecret: string;
} {
  const match = new RegExp(`^(${CLIENT_ID}):(.+)$`).exec(credentials.apiKey.trim());
  if (match === null) {
    throw new BrokerError(
      'rejected',
      'BAD_CREDENTIALS',
      'Dhan API key must be saved as CLIENTID:APIKEY',
      'dhan',
    );
  }
  return { clientId: match[1] ?? '', appId: match[2] ?? '', appSecret: credentials.apiSecret };
}

/** What a Dhan session keeps: the token and the client id every call and both sockets name. */
export interface DhanTokens {
  readonly accessToken: string;
  readonly clientId: string;
}

const storedSchema = z.object({ v: z.literal(1), token: z.string().min(1), client: z.string().min(1) });

export function encodeDhanTokens(tokens: DhanTokens): string {
  return JSON.stringify({ v: 1, token: tokens.accessToken, client: tokens.clientId });
}

/** The tokens of a stored session; a token of another form is a session to log in again. */
export function decodeDhanTokens(accessToken: string): DhanTokens {
  let raw: unknown;
  try {
    raw = JSON.parse(accessToken);
  } catch {
    raw = undefined;
  }
  const parsed = storedSchema.safeParse(raw);
  if (!parsed.success)
    throw new BrokerError('auth_expired', 'BAD_SESSION', 'stored Dhan session not understood', 'dhan');
  return { accessToken: parsed.data.token, clientId: parsed.data.client };
}

/**
 * When a token ends: Dhan's stamp (IST, `2026-11-27T09:15:00` from the consent, `27/11/2026 09:15` from the
 * profile's `tokenValidity`), never later than 24 h from now; 24 h from now when there is none.
 */
export function dhanExpiry(stamp: string | null | undefined, now: number): number {
  const latest = now + DHAN_TOKEN_LIFETIME_MS;
  const text = (stamp ?? '').trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text);
  const dmy = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})/.exec(text);
  const parts = iso
    ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6] ?? '0']
    : dmy
      ? [dmy[3], dmy[2], dmy[1], dmy[4], dmy[5], '0']
      : undefined;
  if (parts === undefined) return latest;
  const [y, mo, d, h, mi, s] = parts.map(Number) as [number, number, number, number, number, number];
  const at = Date.UTC(y, mo - 1, d, h, mi, s) - IST_OFFSET_MS;
  return Number.isFinite(at) && at > now ? Math.min(at, latest) : latest;
}

export interface DhanLoginContext {
  readonly apiRoot: string;
  /** scheme + host of Dhan's auth service (DHAN_LOGIN_URL's origin) */
  readonly authRoot: string;
  readonly now: () => number;
}

/** The account a token belongs to (`GET /v2/profile`); throws `BrokerError`. */
export async function dhanProfile(
  context: Pick<DhanLoginContext, 'apiRoot'>,
  tokens: DhanTokens,
): Promise<z.infer<typeof dhanProfileSchema>> {
  const http = new DhanHttp({ apiRoot: context.apiRoot, ...tokens });
  return http.request({ method: 'GET', path: DHAN_PROFILE_PATH, schema: dhanProfileSchema });
}

const notTheAccount = (): BrokerError =>
  new BrokerError('rejected', 'OTHER_ACCOUNT', 'the Dhan token belongs to another client id', 'dhan');

/** The pasted token: checked by reading the profile with it; throws `BrokerError`. */
export async function completeDhanTokenLogin(
  context: DhanLoginContext,
  values: Readonly<Record<string, string>>,
): Promise<BrokerSession> {
  const tokens = { accessToken: values.accessToken ?? '', clientId: values.clientId ?? '' };
  const profile = await dhanProfile(context, tokens);
  if (profile.dhanClientId !== tokens.clientId) throw notTheAccount();
  return {
    accessToken: encodeDhanTokens(tokens),
    expiresAt: dhanExpiry(profile.tokenValidity, context.now()),
    accountId: tokens.clientId,
    // The profile names no holder; the card shows the client id.
    accountName: `Dhan ${tokens.clientId}`,
  };
}

const consentSchema = z.object({ consentAppId: z.string().min(1) });
const consumedSchema = z.object({
  accessToken: z.string().min(1),
  dhanClientId: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().min(1)),
  dhanClientName: z.string().nullish(),
  expiryTime: z.string().nullish(),
});

/**
 * The consent calls authenticate the trader's app, not a session: Dhan refusing them (DH-901) means the saved key
 * or secret is wrong, which the trader fixes on the card — a refusal, never "your session has expired".
 */
async function asApp<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'auth_expired') {
      throw new BrokerError('rejected', error.code, 'Dhan refused the app credentials', 'dhan');
    }
    throw error;
  }
}

const appHeaders = (app: { appId: string; appSecret: string }) => ({
  Accept: 'application/json',
  app_id: app.appId,
  app_secret: app.appSecret,
});

/** Step 1 and the URL of step 2: a fresh consent for the trader's app, and Dhan's login page for it. */
export async function dhanConsentLoginUrl(
  context: DhanLoginContext,
  credentials: BrokerCredentials,
): Promise<string> {
  const app = dhanAppOf(credentials);
  const { consentAppId } = await asApp(
    dhanCall(
      {
        method: 'POST',
        url: `${context.authRoot}${DHAN_CONSENT_PATHS.generate}?client_id=${encodeURIComponent(app.clientId)}`,
        headers: appHeaders(app),
      },
      consentSchema,
    ),
  );
  return `${context.authRoot}${DHAN_CONSENT_PATHS.login}?consentAppId=${encodeURIComponent(consentAppId)}`;
}

/** Step 3: the redirect's `tokenId` exchanged for the token; throws `BrokerError`. */
export async function completeDhanConsentLogin(
  context: DhanLoginContext,
  input: { credentials: BrokerCredentials; query: CallbackQuery },
): Promise<BrokerSession> {
  const tokenId = input.query.tokenId;
  if (!tokenId)
    throw new BrokerError('rejected', 'NO_TOKEN', 'Dhan login did not return its tokenId', 'dhan');
  const app = dhanAppOf(input.credentials);
  const consumed = await asApp(
    dhanCall(
      {
        method: 'GET',
        url: `${context.authRoot}${DHAN_CONSENT_PATHS.consume}?tokenId=${encodeURIComponent(tokenId)}`,
        headers: appHeaders(app),
      },
      consumedSchema,
    ),
  );
  // The callback is reachable by any browser: only the account the trader declared is accepted.
  if (consumed.dhanClientId !== app.clientId) throw notTheAccount();
  return {
    accessToken: encodeDhanTokens({ accessToken: consumed.accessToken, clientId: consumed.dhanClientId }),
    expiresAt: dhanExpiry(consumed.expiryTime, context.now()),
    accountId: consumed.dhanClientId,
    accountName: consumed.dhanClientName?.trim() || `Dhan ${consumed.dhanClientId}`,
  };
}
