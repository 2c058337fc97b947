// Signed one-click unsubscribe links for non-essential e-mail (RFC 8058). The token is an HS256 JWT signed with the
// server's JWT key but with its own audience, so a session token is not an unsubscribe token nor the reverse. It
// names the user and the event, and turns off that event's e-mail only; it expires after UNSUBSCRIBE_TOKEN_DAYS so
// a leaked old e-mail cannot be replayed for ever.
import { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../clock';
import { TRADER_EVENTS, ADMIN_EVENTS, type NotificationEvent } from './types';

const ISSUER = 'optionpilot';
const AUDIENCE = 'optionpilot-unsubscribe';
export const UNSUBSCRIBE_TOKEN_DAYS = 180;
export const UNSUBSCRIBE_PATH = '/api/notifications/unsubscribe';

const EVENTS: ReadonlySet<string> = new Set<string>([...TRADER_EVENTS, ...ADMIN_EVENTS]);

export interface UnsubscribeClaims {
  userId: number;
  event: NotificationEvent;
}

export interface UnsubscribeLinks {
  /** the absolute URL for `NotificationRecipient.unsubscribeUrl` and the List-Unsubscribe header */
  unsubscribeUrlFor(userId: number, event: NotificationEvent): Promise<string>;
  /** the claims of a valid, unexpired token of ours; null otherwise */
  verify(token: string): Promise<UnsubscribeClaims | null>;
}

/** Creates the link signer over the JWT key (at least 32 bytes) and the public URL the links point at. */
export function createUnsubscribeLinks(
  secret: Uint8Array,
  clock: Clock,
  publicUrl: string,
): UnsubscribeLinks {
  const key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  return {
    async unsubscribeUrlFor(userId, event) {
      const nowSeconds = Math.floor(clock.now() / 1000);
      const token = await new SignJWT({ evt: event })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(nowSeconds)
        .setExpirationTime(nowSeconds + UNSUBSCRIBE_TOKEN_DAYS * 86_400)
        .sign(await key);
      const url = new URL(UNSUBSCRIBE_PATH, `${publicUrl}/`);
      url.searchParams.set('token', token);
      return url.toString();
    },
    async verify(token) {
      if (token.length > 2048) return null;
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now()),
          requiredClaims: ['sub', 'exp'],
        });
        const userId = Number(payload.sub);
        const event = payload.evt;
        if (!Number.isSafeInteger(userId) || userId <= 0) return null;
        if (typeof event !== 'string' || !EVENTS.has(event)) return null;
        return { userId, event: event as NotificationEvent };
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}
