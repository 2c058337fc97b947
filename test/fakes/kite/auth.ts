// The fake's accounts and sessions: registered apps, the login redirect with its single-use request tokens, the
// `session/token` exchange with its checksum, and the access tokens the API and the ticker accept.
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendError, sendJson } from './replies';

/** A trader's Kite Connect app and the Zerodha account that logs in through it. */
export interface KiteFakeApp {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly userId: string;
  readonly userName: string;
  /** the app's registered redirect URL */
  readonly redirectUrl: string;
  /** the app's postback URL; no postbacks without one */
  readonly postbackUrl?: string;
}

export class FakeKiteAuth {
  private readonly apps = new Map<string, KiteFakeApp>();
  private readonly appsByUser = new Map<string, KiteFakeApp>();
  private readonly requestTokens = new Map<string, KiteFakeApp>();
  private readonly sessions = new Map<string, KiteFakeApp>();

  addApp(app: KiteFakeApp): void {
    this.apps.set(app.apiKey, app);
    this.appsByUser.set(app.userId, app);
  }

  appOfUser(userId: string): KiteFakeApp | undefined {
    return this.appsByUser.get(userId);
  }

  /** A session without the browser login (for load tests); the login flow issues the same kind of token. */
  issueSession(apiKey: string): string {
    const app = this.apps.get(apiKey);
    if (!app) throw new Error(`no app ${apiKey}`);
    const token = randomBytes(16).toString('hex');
    this.sessions.set(token, app);
    return token;
  }

  /** Ends every session, as Kite does at 06:00 IST. */
  expireSessions(): void {
    this.sessions.clear();
  }

  /** The app of a live `api_key` + `access_token` pair. */
  appOf(apiKey: string, accessToken: string): KiteFakeApp | undefined {
    const app = this.sessions.get(accessToken);
    return app?.apiKey === apiKey ? app : undefined;
  }

  /** The app of an `Authorization: token api_key:access_token` header. */
  appOfHeader(header: string | undefined): KiteFakeApp | undefined {
    const match = /^token ([^:]+):(.+)$/.exec(header ?? '');
    return match ? this.appOf(match[1] ?? '', match[2] ?? '') : undefined;
  }

  login(url: URL, res: ServerResponse): void {
    const app = this.apps.get(url.searchParams.get('api_key') ?? '');
    if (url.searchParams.get('v') !== '3' || !app) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Invalid api_key');
      return;
    }
    const requestToken = randomBytes(16).toString('hex');
    this.requestTokens.set(requestToken, app);
    const target = new URL(app.redirectUrl);
    for (const [k, v] of Object.entries({
      request_token: requestToken,
      action: 'login',
      type: 'login',
      status: 'success',
    })) {
      target.searchParams.set(k, v);
    }
    // Kite appends the decoded redirect_params to the redirect URL (where an OAuth `state` travels).
    for (const [k, v] of new URLSearchParams(url.searchParams.get('redirect_params') ?? ''))
      target.searchParams.set(k, v);
    res.writeHead(302, { location: target.toString() });
    res.end();
  }

  sessionToken(form: URLSearchParams, res: ServerResponse): void {
    const apiKey = form.get('api_key') ?? '';
    const requestToken = form.get('request_token') ?? '';
    const app = this.requestTokens.get(requestToken);
    if (!app || app.apiKey !== apiKey) {
      return sendError(res, {
        status: 403,
        errorType: 'TokenException',
        message: 'Token is invalid or has expired.',
      });
    }
    const expected = createHash('sha256')
      .update(apiKey + requestToken + app.apiSecret)
      .digest('hex');
    if (form.get('checksum') !== expected) {
      return sendError(res, { status: 403, errorType: 'TokenException', message: 'Invalid checksum' });
    }
    this.requestTokens.delete(requestToken);
    const accessToken = this.issueSession(apiKey);
    sendJson(res, 200, {
      status: 'success',
      data: {
        user_type: 'individual',
        email: 'XXXXXX',
        user_name: app.userName,
        user_shortname: app.userName.split(' ')[0],
        broker: 'ZERODHA',
        exchanges: ['NSE', 'NFO', 'BSE'],
        products: ['CNC', 'NRML', 'MIS'],
        order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'],
        user_id: app.userId,
        api_key: apiKey,
        access_token: accessToken,
        public_token: randomBytes(8).toString('hex'),
        refresh_token: '',
        login_time: '2026-11-24 08:45:00',
        meta: { demat_consent: 'physical' },
      },
    });
  }
}
