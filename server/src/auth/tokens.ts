// Session tokens: HS256 JWTs signed with jose. The `jti` is the id of a `sessions` row, so a token is only as good
// as its row: logout and password changes revoke the row and the token stops working at once.
import { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../clock';

export interface TokenClaims {
  userId: number;
  sessionId: string;
  /** epoch ms */
  expiresAt: number;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** null for anything that is not a valid, unexpired token of ours */
  verify(token: string): Promise<TokenClaims | null>;
}

const ISSUER = 'optionpilot';
const AUDIENCE = 'optionpilot-web';
/** Tokens whose signature and claims were verified, kept so repeat requests skip the WebCrypto round trip. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * Creates the signer/verifier over a secret key of at least 32 bytes.
 *
 * Verified tokens are remembered (by their exact text, up to `cacheSize`, oldest dropped first): a dashboard
 * presents the same token on every poll, and jose's WebCrypto verification (a thread-pool job) was ~50 µs, a
 * fifth of a `GET /api/user/stats`. A signature cannot stop being valid, so the cache only re-checks the expiry;
 * revocation is not the token's business: every request still checks the session row (services/sessions.ts).
 */
export function createTokenService(
  secret: Uint8Array,
  clock: Clock,
  cacheSize = VERIFIED_TOKEN_CACHE_SIZE,
): TokenService {
  if (secret.length < 32) throw new Error('JWT secret must be at least 32 bytes');
  // Imported once as a WebCrypto key: jose v6 is WebCrypto-only, so given raw bytes or a node KeyObject it imports
  // a fresh CryptoKey on every sign/verify (~10 % of an authenticated request's CPU in the bench:live profile).
  const key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  const verified = new Map<string, TokenClaims>();
  const remember = (token: string, claims: TokenClaims) => {
    verified.set(token, claims);
    if (verified.size > cacheSize) verified.delete(verified.keys().next().value as string);
  };
  return {
    async sign({ userId, sessionId, expiresAt }) {
      const nowSeconds = Math.floor(clock.now() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setJti(sessionId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(nowSeconds)
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(await key);
    },
    async verify(token) {
      if (token.length > 4096) return null;
      const known = verified.get(token);
      // jose's rule, in ms: expired once floor(now / 1000) >= exp, i.e. once now >= exp × 1000.
      if (known) return clock.now() < known.expiresAt ? known : null;
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now()),
          requiredClaims: ['sub', 'jti', 'exp'],
        });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.jti !== 'string') return null;
        const claims = Object.freeze({
          userId,
          sessionId: payload.jti,
          expiresAt: (payload.exp ?? 0) * 1000,
        });
        remember(token, claims);
        return claims;
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}
