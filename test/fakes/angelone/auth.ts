// The fake's accounts and sessions: the form login (`loginByPassword`: client code, MPIN and a TOTP checked
// against the account's secret), the publisher-login page that redirects back with the tokens, and the JWTs the
// API and the sockets accept until Angel's midnight logout.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { envelope, failure, type Reply } from './replies';
import { totp } from './totp';

/** A trader at the fake: their SmartAPI app (API key), account and daily-login secrets. */
export interface AngelFakeAccount {
  readonly apiKey: string;
  readonly clientCode: string;
  readonly mpin: string;
  /** base32 TOTP secret (the QR value of Angel's "Enable TOTP" page) */
  readonly totpSecret: string;
  readonly name: string;
  /** the app's redirect URL, for the publisher login */
  readonly redirectUrl?: string;
}

export interface AngelSession {
  readonly clientCode: string;
  readonly apiKey: string;
  readonly feedToken: string;
}

/** What a login hands back: the JWT, the feed token (sockets) and the refresh token. */
export interface AngelTokens {
  readonly jwt: string;
  readonly feedToken: string;
  readonly refreshToken: string;
}

const token = (): string =>
  `eyJhbGciOiJIUzUxMiJ9.${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`;

export class AngelFakeAuth {
  /** logins attempted (form and publisher) */
  logins = 0;
  private readonly accounts = new Map<string, AngelFakeAccount>();
  private readonly sessions = new Map<string, AngelSession>();

  addAccount(account: AngelFakeAccount): void {
    this.accounts.set(account.clientCode, account);
  }

  account(clientCode: string): AngelFakeAccount | undefined {
    return this.accounts.get(clientCode);
  }

  /** A session as a login would issue it, without one (tests that start logged in). */
  issueSession(clientCode: string): AngelTokens {
    const account = this.accounts.get(clientCode);
    if (!account) throw new Error(`no account ${clientCode}`);
    const jwt = token();
    const feedToken = token();
    this.sessions.set(jwt, { clientCode, apiKey: account.apiKey, feedToken });
    return { jwt, feedToken, refreshToken: token() };
  }

  /** The session of a JWT sent with this API key, if it is live. */
  session(jwt: string, apiKey: string): AngelSession | undefined {
    const session = this.sessions.get(jwt);
    return session?.apiKey === apiKey ? session : undefined;
  }

  /** Every session issued so far is refused from now on. */
  expireSessions(): void {
    this.sessions.clear();
  }

  /** `loginByPassword`: client code, MPIN and the TOTP of this 30-second step or the one before. */
  login(apiKey: string, body: Record<string, unknown>): Reply {
    this.logins += 1;
    const account = this.accounts.get(String(body.clientcode ?? ''));
    if (account === undefined || account.apiKey !== apiKey) {
      return failure(200, 'AB1007', 'LoginId or password is invalid');
    }
    if (String(body.password ?? '') !== account.mpin) return failure(200, 'AB1007', 'Invalid MPIN');
    const now = Date.now();
    // The code of this 30-second step or the one before (a code typed at the end of its step).
    const totps = [totp(account.totpSecret, now), totp(account.totpSecret, now - 30_000)];
    if (!totps.includes(String(body.totp ?? ''))) return failure(200, 'AB1050', 'Invalid totp');
    const { jwt, feedToken, refreshToken } = this.issueSession(account.clientCode);
    return { status: 200, json: envelope({ jwtToken: jwt, refreshToken, feedToken, state: 'live' }) };
  }

  publisherLogin(url: URL, res: ServerResponse): void {
    this.logins += 1;
    const apiKey = url.searchParams.get('api_key') ?? '';
    const account = [...this.accounts.values()].find((a) => a.apiKey === apiKey);
    if (account?.redirectUrl === undefined) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<h1>Invalid API key</h1>');
      return;
    }
    // The trader logs in on Angel's page (client code, MPIN, TOTP); the fake sends them straight back.
    const { jwt, feedToken, refreshToken } = this.issueSession(account.clientCode);
    const back = new URL(account.redirectUrl);
    back.searchParams.set('auth_token', jwt);
    back.searchParams.set('feed_token', feedToken);
    back.searchParams.set('refresh_token', refreshToken);
    const state = url.searchParams.get('state');
    if (state !== null) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.toString() }).end();
  }
}
