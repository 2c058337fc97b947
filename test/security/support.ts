// Helpers of the security suite: accounts and sessions minted straight into the test server's database (no
// Argon2 round trip per token), every kind of bad token an attacker could present, and a fingerprint of the whole
// database to prove a refused request changed nothing.
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { loadOrCreateJwtKey } from '../../server/src/crypto';
import { revokeSession } from '../../server/src/db';
import { createAccount, mintToken } from '../../server/src/testing/accounts';
import type { TestServer } from '../../server/src/testing/server';

export type TokenKind =
  'none' | 'garbage' | 'alg-none' | 'wrong-key' | 'expired' | 'revoked' | 'user' | 'admin';
export const BAD_TOKEN_KINDS = ['none', 'garbage', 'alg-none', 'wrong-key', 'expired', 'revoked'] as const;

export { createAccount, mintToken };

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token of `kind` for the account `userId` (`user`/`admin`: a fresh live session each call). */
export async function tokenOf(t: TestServer, kind: TokenKind, userId: number): Promise<string | undefined> {
  const nowSeconds = Math.floor(t.clock.now() / 1000);
  const claims = { sub: String(userId), iss: 'optionpilot', aud: 'optionpilot-web', iat: nowSeconds };
  switch (kind) {
    case 'none':
      return undefined;
    case 'garbage':
      return 'this.is-not.a-token';
    case 'alg-none': {
      const { sessionId } = await mintToken(t, userId);
      return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, jti: sessionId, exp: nowSeconds + 3600 })}.`;
    }
    case 'wrong-key': {
      const { sessionId } = await mintToken(t, userId);
      return new SignJWT({ ...claims, jti: sessionId, exp: nowSeconds + 3600 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(randomBytes(32));
    }
    case 'expired': {
      // Signed with the server's real key for a live session: only the expiry is wrong.
      const { sessionId } = await mintToken(t, userId);
      const key = loadOrCreateJwtKey(t.config.dataDir, t.config.jwtSecret);
      return new SignJWT({ ...claims, jti: sessionId, iat: nowSeconds - 7200, exp: nowSeconds - 60 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(key);
    }
    case 'revoked': {
      const { token, sessionId } = await mintToken(t, userId);
      await revokeSession(t.server.deps.db.knex, sessionId, 'logout', t.clock.now());
      return token;
    }
    case 'user':
    case 'admin':
      return (await mintToken(t, userId)).token;
  }
}

/**
 * Tables the trading runtime writes on its own schedule, whatever requests do (it persists the simulated market's
 * clock and price so a restart resumes from them); a request's effect is judged on every other table.
 */
export const BACKGROUND_TABLES: ReadonlySet<string> = new Set(['engine_state']);

/** SHA-256 over every row of every table but the background ones: equal fingerprints mean nothing was written. */
export async function databaseFingerprint(t: TestServer): Promise<string> {
  const { knex, dialect } = t.server.deps.db;
  const tables =
    dialect === 'sqlite'
      ? (
          (await knex.raw("select name from sqlite_master where type = 'table' order by name")) as {
            name: string;
          }[]
        ).map((r) => r.name)
      : (
          (await knex.raw(
            'select table_name as name from information_schema.tables where table_schema = current_schema() order by 1',
          )) as { rows: { name: string }[] }
        ).rows.map((r) => r.name);
  const hash = createHash('sha256');
  for (const table of tables.filter((name) => !BACKGROUND_TABLES.has(name))) {
    const rows = (await knex(table).select('*')) as unknown[];
    hash.update(table);
    hash.update(
      rows
        .map((row) => JSON.stringify(row))
        .sort()
        .join('\n'),
    );
  }
  return hash.digest('hex');
}
