// Accounts and sessions minted straight into a test server's database: no Argon2 round trip and no registration
// rate limit, for tests that need many signed-in users (the security suite, concurrent checkouts).
import { openSession, signSession } from '../services/sessions';
import { createUser } from '../services/users';
import type { TestServer } from './server';

const META = { ip: '127.0.0.1', userAgent: 'test-accounts', requestId: 'test-accounts' };

/** Inserts an account (the password hash is a placeholder unless `passwordHash` is given); returns its id. */
export async function createAccount(
  t: TestServer,
  email: string,
  options: { isAdmin?: boolean; passwordHash?: string } = {},
): Promise<number> {
  const user = await createUser({
    db: t.server.deps.db.knex,
    now: t.clock.now(),
    user: {
      email,
      firstName: 'Sec',
      lastName: 'Suite',
      passwordHash: options.passwordHash ?? 'not-a-hash',
      isAdmin: options.isAdmin ?? false,
    },
  });
  return user.id;
}

/** A live session of `userId` and its signed token. */
export async function mintToken(
  t: TestServer,
  userId: number,
): Promise<{ token: string; sessionId: string }> {
  const deps = t.server.deps;
  const session = await openSession({ db: deps.db.knex, deps, userId, meta: META });
  return { token: await signSession({ deps, userId, session }), sessionId: session.sessionId };
}
