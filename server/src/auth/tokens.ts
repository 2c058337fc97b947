// Session tokens: HS256 JWTs signed with jose. The `jti` is the id of a `sessions` row, so a token is only as good
// as its row: logout and password changes revoke the row and the token stops working at once.
import { createSecretKey } from 'node:crypto';
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

/** Creates the signer/verifier over a secret key of at least 32 bytes. */
export function createTokenService(secret: Uint8Array, clock: Clock): TokenService {
  if (secret.length < 32) throw new Error('JWT secret must be at least 32 bytes');
  // Imported once: given raw bytes, jose imports a fresh key on every sign/verify, ~10% of an authenticated
  // request's CPU in the bench:live profile.
  const key = createSecretKey(secret);
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
        .sign(key);
    },
    async verify(token) {
      if (token.length > 4096) return null;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now()),
          requiredClaims: ['sub', 'jti', 'exp'],
        });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.jti !== 'string') return null;
        return { userId, sessionId: payload.jti, expiresAt: (payload.exp ?? 0) * 1000 };
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}
