// The fake's apps and sessions: registered apps, the login redirect with its single-use auth codes, the
// `validate-authcode` exchange with its appIdHash, and the access tokens (JWTs carrying an `hsm_key` for the data
// socket, as Fyers' do) the API and the sockets accept. Sessions end all at once, as at 06:00 IST.
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendError, sendJson } from './replies';

/** A trader's Fyers API app and the Fyers account that logs in through it. */
export interface FyersFakeApp {
  /** `XXXXXX-100` */
  readonly appId: string;
  readonly secret: string;
  /** the account's Fyers id (`fy_id`) */
  readonly fyId: string;
  readonly name: string;
  /** the app's registered redirect URL */
  readonly redirectUrl: string;
}

interface Session {
  readonly app: FyersFakeApp;
  readonly hsmKey: string;
}

export class FakeFyersAuth {
  private readonly apps = new Map<string, FyersFakeApp>();
  private readonly authCodes = new Map<string, FyersFakeApp>();
  private readonly sessions = new Map<string, Session>();
  /** tokens that were valid once and have ended (Fyers answers them "token expired", -8) */
  private readonly ended = new Set<string>();

  addApp(app: FyersFakeApp): void {
    this.apps.set(app.appId, app);
  }

  appOfFyId(fyId: string): FyersFakeApp | undefined {
    return [...this.apps.values()].find((a) => a.fyId === fyId);
  }

  /** A session without the browser login (load tests, server tests); the login flow issues the same kind. */
  issueSession(appId: string): string {
    const app = this.apps.get(appId);
    if (!app) throw new Error(`no app ${appId}`);
    const now = Math.floor(Date.now() / 1_000);
    const hsmKey = randomBytes(12).toString('hex');
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = [
      part({ alg: 'HS256', typ: 'JWT' }),
      part({
        iss: 'api.fyers.in',
        iat: now,
        exp: now + 86_400,
        sub: 'access_token',
        fy_id: app.fyId,
        hsm_key: hsmKey,
      }),
      randomBytes(16).toString('base64url'),
    ].join('.');
    this.sessions.set(token, { app, hsmKey });
    return token;
  }

  /** Ends every session, as Fyers does at 06:00 IST. */
  expireSessions(): void {
    for (const token of this.sessions.keys()) this.ended.add(token);
    this.sessions.clear();
  }

  /** The app of an `Authorization: APP_ID:ACCESS_TOKEN` header; `expired` for a token that has ended. */
  check(header: string | undefined): FyersFakeApp | 'expired' | undefined {
    const at = (header ?? '').indexOf(':');
    if (at < 0) return undefined;
    const appId = (header ?? '').slice(0, at);
    const token = (header ?? '').slice(at + 1);
    const session = this.sessions.get(token);
    if (session?.app.appId === appId) return session.app;
    return this.ended.has(token) ? 'expired' : undefined;
  }

  /** The app of a live session's `hsm_key` (the data socket's authentication). */
  appOfHsmKey(hsmKey: string): FyersFakeApp | undefined {
    for (const session of this.sessions.values()) if (session.hsmKey === hsmKey) return session.app;
    return undefined;
  }

  /** `GET /api/v3/generate-authcode`: the login page, which sends a logged-in trader straight back. */
  login(url: URL, res: ServerResponse): void {
    const app = this.apps.get(url.searchParams.get('client_id') ?? '');
    const redirect = url.searchParams.get('redirect_uri') ?? '';
    if (!app || url.searchParams.get('response_type') !== 'code' || redirect !== app.redirectUrl) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Invalid app id or redirect uri');
      return;
    }
    const authCode = randomBytes(16).toString('hex');
    this.authCodes.set(authCode, app);
    const target = new URL(redirect);
    target.searchParams.set('s', 'ok');
    target.searchParams.set('code', '200');
    target.searchParams.set('auth_code', authCode);
    target.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: target.toString() });
    res.end();
  }

  /** `POST /api/v3/validate-authcode` with `{ grant_type, appIdHash, code }`. */
  validateAuthCode(body: Record<string, unknown>, res: ServerResponse): void {
    const code = typeof body.code === 'string' ? body.code : '';
    const app = this.authCodes.get(code);
    if (body.grant_type !== 'authorization_code' || !app) {
      return sendError(res, 400, -374, 'Please provide authorization code.');
    }
    const expected = createHash('sha256').update(`${app.appId}:${app.secret}`).digest('hex');
    if (body.appIdHash !== expected) {
      return sendError(res, 400, -371, 'Please provide sha256 hash of appId and app secret');
    }
    // Auth codes are single-use.
    this.authCodes.delete(code);
    sendJson(res, 200, {
      s: 'ok',
      code: 200,
      message: '',
      access_token: this.issueSession(app.appId),
      refresh_token: randomBytes(16).toString('hex'),
    });
  }
}
