// The fake's accounts and sessions: Dhan's consent login (`/app/generate-consent`, the `/login/consentApp-login`
// page that redirects back with a single-use `tokenId`, `/app/consumeApp-consent`) and the access tokens the API
// and the sockets accept until they expire.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { error, INPUT, send } from './replies';

/** A trader at the fake: their Dhan account and API app. */
export interface DhanFakeAccount {
  readonly clientId: string;
  readonly name: string;
  /** the app's API key and secret (`app_id` / `app_secret`) */
  readonly appId: string;
  readonly appSecret: string;
  /** the app's redirect URL, for the consent login */
  readonly redirectUrl?: string;
}

const newToken = (): string =>
  `eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9.${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`;

export class DhanFakeAuth {
  private readonly accounts = new Map<string, DhanFakeAccount>();
  /** access token → client id */
  private readonly sessions = new Map<string, string>();
  /** consentAppId → client id, until its login */
  private readonly consents = new Map<string, string>();
  /** tokenId → client id, single use */
  private readonly tokenIds = new Map<string, string>();

  addAccount(account: DhanFakeAccount): void {
    this.accounts.set(account.clientId, account);
  }

  /** A token as web.dhan.co would generate it (the pasted-token login, and tests that start logged in). */
  issueToken(clientId: string): string {
    if (!this.accounts.has(clientId)) throw new Error(`no account ${clientId}`);
    const token = newToken();
    this.sessions.set(token, clientId);
    return token;
  }

  /** The client id of a live access token. */
  clientOf(token: string): string | undefined {
    return this.sessions.get(token);
  }

  /** Every token issued so far ends (24 h passed). */
  expireSessions(): void {
    this.sessions.clear();
  }

  /** The consent login's three steps (`/app/…`, `/login/…`). */
  handle(method: string, url: URL, headers: IncomingHttpHeaders, res: ServerResponse): void {
    const app = [...this.accounts.values()].find(
      (a) => a.appId === headers.app_id && a.appSecret === headers.app_secret,
    );
    if (method === 'POST' && url.pathname === '/app/generate-consent') {
      const clientId = url.searchParams.get('client_id') ?? '';
      if (app === undefined || app.clientId !== clientId)
        return send(res, error(400, 'DH-901', 'Invalid_Authentication', 'Invalid app_id or app_secret'));
      const consentAppId = randomBytes(16).toString('hex');
      this.consents.set(consentAppId, clientId);
      return send(res, {
        status: 200,
        json: { consentAppId, consentAppStatus: 'GENERATED', status: 'success' },
      });
    }
    if (method === 'GET' && url.pathname === '/login/consentApp-login') return this.consentLogin(url, res);
    if (method === 'GET' && url.pathname === '/app/consumeApp-consent') {
      const tokenId = url.searchParams.get('tokenId') ?? '';
      const clientId = this.tokenIds.get(tokenId);
      this.tokenIds.delete(tokenId);
      if (app === undefined || clientId === undefined || app.clientId !== clientId) {
        return send(
          res,
          error(400, 'DH-901', 'Invalid_Authentication', 'Invalid tokenId or app credentials'),
        );
      }
      const ist = new Date(Date.now() + 24 * 3_600_000 + 5.5 * 3_600_000).toISOString().slice(0, 19);
      return send(res, {
        status: 200,
        json: {
          dhanClientId: clientId,
          dhanClientName: this.accounts.get(clientId)?.name ?? '',
          dhanClientUcc: 'CEFE4265',
          givenPowerOfAttorney: false,
          accessToken: this.issueToken(clientId),
          expiryTime: ist,
        },
      });
    }
    return send(res, INPUT('Route not found'));
  }

  /** The trader logs in on Dhan's page (mobile, password, 2FA); the fake sends them straight back. */
  private consentLogin(url: URL, res: ServerResponse): void {
    const clientId = this.consents.get(url.searchParams.get('consentAppId') ?? '');
    const account = clientId === undefined ? undefined : this.accounts.get(clientId);
    if (account?.redirectUrl === undefined) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<h1>Invalid consent</h1>');
      return;
    }
    this.consents.delete(url.searchParams.get('consentAppId') ?? '');
    const tokenId = randomBytes(12).toString('hex');
    this.tokenIds.set(tokenId, account.clientId);
    const back = new URL(account.redirectUrl);
    back.searchParams.set('tokenId', tokenId);
    res.writeHead(302, { location: back.toString() }).end();
  }
}
